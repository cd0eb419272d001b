/** The session's chats (GET /v1/chat/all), newest first, read again as message events arrive. */
import { useEffect, useState } from 'hono/jsx/dom'
import { ErrorText } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { onEvent } from '../../live'
import { href } from '../../router'
import { formatWhen, summary } from './model'
import type { Chat } from './rules'
import { texts } from './texts'

const t = translator(texts)

interface ChatPage {
  chats: Chat[]
  nextCursor: string | null
}

export interface Chats {
  chats: Chat[]
  loaded: boolean
  nextCursor: string | null
  error: string | null
  more(): void
}

/**
 * The chats as last read. An event changes names, counts and order in ways only the gateway
 * knows (a LID joining its number's chat, a read receipt), so the first page is read again
 * (once per burst of events) and the pages read after it are kept below it.
 */
export function useChats(sessionId: string): Chats {
  const empty = { chats: [], loaded: false, paged: false, nextCursor: null, error: null }
  const [state, setState] = useState<Omit<Chats, 'more'> & { paged: boolean }>(empty)
  const read = (cursor: string | null) =>
    api<ChatPage>(
      'GET',
      cursor ? path`/v1/chat/all?sessionId=${sessionId}&cursor=${cursor}` : path`/v1/chat/all?sessionId=${sessionId}`,
    )
  const readFirst = () =>
    read(null).then(
      (page) =>
        setState((current) => {
          if (!current.paged)
            return { chats: page.chats, loaded: true, paged: false, nextCursor: page.nextCursor, error: null }
          // More pages were read: keep what they showed below the fresh first page (and where they ended).
          const fresh = new Set(page.chats.map((chat) => chat.chat))
          const below = current.chats.filter((chat) => !fresh.has(chat.chat))
          return { ...current, chats: [...page.chats, ...below], error: null }
        }),
      (error: Error) => setState((current) => ({ ...current, loaded: true, error: error.message })),
    )
  useEffect(() => {
    setState(empty)
    void readFirst()
    let timer: ReturnType<typeof setTimeout> | null = null
    const off = onEvent((event) => {
      if (event.sessionId !== sessionId || !event.type.startsWith('message.')) return
      if (timer) clearTimeout(timer)
      timer = setTimeout(readFirst, 250)
    })
    return () => {
      off()
      if (timer) clearTimeout(timer)
    }
  }, [sessionId])
  const more = () => {
    if (!state.nextCursor) return
    read(state.nextCursor).then(
      (page) =>
        setState((current) => {
          const known = new Set(current.chats.map((chat) => chat.chat))
          return {
            ...current,
            chats: [...current.chats, ...page.chats.filter((chat) => !known.has(chat.chat))],
            paged: true,
            nextCursor: page.nextCursor,
          }
        }),
      (error: Error) => setState((current) => ({ ...current, error: error.message })),
    )
  }
  return { ...state, more }
}

function preview(chat: Chat, names: Map<string, string>): string {
  const last = chat.lastMessage
  const text = summary(last)
  if (last.direction === 'outbound') return t('youSaid', { text })
  if (chat.isGroup && last.participant)
    return t('someoneSaid', { name: names.get(last.participant) ?? last.participant, text })
  return text
}

export function ChatList({
  sessionId,
  chats,
  selected,
  names,
}: {
  sessionId: string
  chats: Chats
  selected: string | null
  names: Map<string, string>
}) {
  return (
    <section class="chat-list" aria-labelledby="chats-title">
      <h2 id="chats-title">{t('chats')}</h2>
      {chats.loaded ? null : <p class="muted">{t('loading')}</p>}
      {chats.loaded && chats.chats.length === 0 && !chats.error ? <p class="muted">{t('noChats')}</p> : null}
      <ul id="chats" class="chats">
        {chats.chats.map((chat) => (
          // Keyed: a chat moved up by a new message keeps its own row, so a click lands on the chat aimed at.
          <li key={chat.chat} data-chat={chat.chat} class={chat.chat === selected ? 'selected' : ''}>
            <a
              class="chat-link"
              href={href({ screen: 'session', sessionId, tab: 'inbox', item: chat.chat })}
              aria-current={chat.chat === selected ? 'page' : undefined}
            >
              <span class="chat-top">
                <span class="chat-name">{chat.name ?? chat.phone ?? chat.chat}</span>
                <span class="chat-time muted small">{formatWhen(chat.lastMessageAt)}</span>
              </span>
              <span class="chat-bottom">
                <span class="chat-preview muted small">{preview(chat, names)}</span>
                {chat.isGroup ? <span class="status group">{t('group')}</span> : null}
                {chat.pinned ? <span class="status pinned">{t('pinned')}</span> : null}
                {chat.archived ? <span class="status archived">{t('archived')}</span> : null}
                {chat.mutedUntil ? <span class="status muted-chat">{t('muted')}</span> : null}
                {chat.unreadCount > 0 ? (
                  <span class="unread" data-count={chat.unreadCount}>
                    <span aria-hidden="true">{chat.unreadCount}</span>
                    <span class="visually-hidden">{t('unread', { count: chat.unreadCount })}</span>
                  </span>
                ) : null}
              </span>
            </a>
          </li>
        ))}
      </ul>
      {chats.nextCursor ? (
        <button type="button" class="plain" id="more-chats" onClick={chats.more}>
          {t('moreChats')}
        </button>
      ) : null}
      <ErrorText id="chats-error" message={chats.error} />
    </section>
  )
}
