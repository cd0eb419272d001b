/** The session's newest messages, updated live from message.* events. */
import { useEffect } from 'hono/jsx/dom'
import type { MessageView } from '../../../schemas/message-record'
import { Badge, TableBox } from '../../components/ui'
import { api } from '../../api'
import { formatTime, translator } from '../../i18n'
import { onEvent } from '../../live'
import type { Session } from '../../sessions'
import { createStore, useStore } from '../../store'
import { texts } from './texts'

const t = translator(texts)

type Row = Partial<MessageView> & { messageId: string; sessionId: string }

/** The shown session's messages by id; replaced when another session is shown. */
const shown = createStore<{ sessionId: string | null; rows: Map<string, Row> }>({ sessionId: null, rows: new Map() })

export function upsertMessage(record: Row) {
  const current = shown.get()
  if (record.sessionId !== current.sessionId) return
  const rows = new Map(current.rows)
  rows.set(record.messageId, { ...rows.get(record.messageId), ...record })
  shown.set({ ...current, rows })
}

const textOf = (m: Row) => {
  const content = (m.content ?? {}) as { text?: string; caption?: string; question?: string }
  return content.text ?? content.caption ?? content.question ?? ''
}

export function Messages({ session }: { session: Session }) {
  const { rows } = useStore(shown)
  useEffect(() => {
    const sessionId = session.sessionId
    shown.set({ sessionId, rows: new Map() })
    void api<{ messages: Row[] }>('GET', `/v1/message/all?limit=50&sessionId=${encodeURIComponent(sessionId)}`)
      .then((page) => {
        for (const record of page.messages.slice().reverse()) upsertMessage(record)
      })
      .catch(() => {})
    return onEvent((event) => {
      if (event.sessionId !== sessionId || !event.type.startsWith('message.')) return
      // Add-ons to a message, not a record: the row they change shows no votes or reactions.
      if (event.type === 'message.poll_vote' || event.type === 'message.reaction') return
      const status =
        event.type === 'message.received'
          ? 'received'
          : event.type === 'message.deleted'
            ? 'deleted'
            : event.data.status
      upsertMessage({
        ...(event.data as Row),
        sessionId,
        createdAt: (event.data.createdAt as string) ?? event.timestamp,
        ...(status ? { status: status as never } : {}),
      })
    })
  }, [session.sessionId])
  const sorted = [...rows.values()].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)))
  return (
    <section>
      <h2>{t('messages')}</h2>
      <TableBox label={t('messages')}>
        <table>
          <thead>
            <tr>
              <th>{t('colTime')}</th>
              <th>{t('colWay')}</th>
              <th>{t('colChat')}</th>
              <th>{t('colType')}</th>
              <th>{t('colText')}</th>
              <th>{t('colStatus')}</th>
            </tr>
          </thead>
          <tbody id="messages">
            {sorted.map((m) => (
              <tr data-id={m.messageId} data-direction={m.direction}>
                <td>{formatTime(m.createdAt)}</td>
                <td>{m.direction === 'inbound' ? t('wayIn') : t('wayOut')}</td>
                <td>{m.phone ?? ''}</td>
                <td>{m.type}</td>
                <td class="text">{textOf(m)}</td>
                <td>{m.status ? <Badge status={m.status} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
    </section>
  )
}
