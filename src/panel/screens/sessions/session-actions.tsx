/**
 * What can be done to a session as a whole, by its status: restart and disconnect a live one;
 * link again (connect with its name: the API re-pairs a finished session under the same id, with
 * the settings sent, so its own are sent back) or delete a finished one.
 */
import { ErrorText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { navigate } from '../../router'
import { type Session, qrImages, refreshSessions, sessions } from '../../sessions'
import { createStore } from '../../store'
import { actionTexts } from './action-texts'

const t = translator(actionTexts)

/** What the last delete removed, shown once the session's page is gone. */
export const deletedNotice = createStore<string | null>(null)

const FINISHED = ['expired', 'logged_out', 'disconnected']
const MASKED_PASSWORD = ':****@'

interface Deleted {
  sessionName: string
  removed: Record<string, number>
}

/** "12 messages, 30 events, …" in the user's language; kinds with nothing removed left out. */
const removedSummary = (removed: Record<string, number>) =>
  Object.entries(removed)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => {
      const key = `removed_${kind}` as Parameters<typeof t>[0]
      return kind && key in actionTexts.en ? t(key, { n }) : `${n} ${kind}`
    })
    .join(', ') || '0'

/** The connect body that links the session again with the settings it has. */
function linkAgainBody(session: Session): Record<string, unknown> {
  const body: Record<string, unknown> = {
    sessionName: session.sessionName,
    mode: 'qr',
    webhookMessages: session.webhookMessages,
  }
  if (session.webhookUrl) body.webhookUrl = session.webhookUrl
  if (session.webhookEvents) body.webhookEvents = session.webhookEvents
  if (session.sendPacing) body.sendPacing = session.sendPacing
  if (session.proxyUrl && !session.proxyUrl.includes(MASKED_PASSWORD)) body.proxyUrl = session.proxyUrl
  return body
}

export function SessionActions({ session }: { session: Session }) {
  const [error, run, busy] = useAction()
  const id = session.sessionId
  const finished = FINISHED.includes(session.status)
  const live = session.status === 'connected' || session.status === 'connecting'
  return (
    <>
      <div class="row">
        {live ? (
          <button
            type="button"
            class="plain"
            id="restart"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await api('POST', path`/v1/session/${id}/restart`)
                await refreshSessions()
              })
            }
          >
            {t('restart')}
          </button>
        ) : null}
        {finished ? (
          <button
            type="button"
            id="link-again"
            disabled={busy}
            onClick={() => {
              const proxyLost = Boolean(session.proxyUrl?.includes(MASKED_PASSWORD))
              if (proxyLost && !confirm(t('confirmLinkAgainProxy', { name: session.sessionName }))) return
              void run(async () => {
                const linked = await api<{ qrImage?: string | null }>(
                  'POST',
                  '/v1/session/connect',
                  linkAgainBody(session),
                )
                if (linked.qrImage) qrImages.update((all) => ({ ...all, [id]: linked.qrImage as string }))
                await refreshSessions()
              })
            }}
          >
            {t('linkAgain')}
          </button>
        ) : null}
        {finished ? null : (
          <button
            type="button"
            class="danger"
            id="disconnect"
            disabled={busy}
            onClick={() => {
              if (!confirm(t('confirmDisconnect', { name: session.sessionName }))) return
              void run(async () => {
                await api('DELETE', path`/v1/session/disconnect/${id}`)
                await refreshSessions()
              })
            }}
          >
            {t('disconnect')}
          </button>
        )}
        {finished ? (
          <button
            type="button"
            class="danger"
            id="delete-session"
            disabled={busy}
            onClick={() => {
              if (!confirm(t('confirmDelete', { name: session.sessionName }))) return
              void run(async () => {
                const deleted = await api<Deleted>('DELETE', path`/v1/session/${id}`)
                // Gone from the list at once, with the notice (the list is read again after).
                sessions.update((list) => list.filter((s) => s.sessionId !== id))
                deletedNotice.set(t('deleted', { name: deleted.sessionName, counts: removedSummary(deleted.removed) }))
                navigate({ screen: 'home' })
                await refreshSessions()
              })
            }}
          >
            {t('deleteSession')}
          </button>
        ) : null}
      </div>
      <ErrorText id="detail-error" message={error} />
    </>
  )
}
