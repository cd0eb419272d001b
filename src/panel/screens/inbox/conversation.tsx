/**
 * One chat: its messages (GET /v1/message/all for the chat, newest page first, older pages on
 * request), kept current from message events, marked read while open (POST /v1/chat/read), and
 * the reply box.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'hono/jsx/dom'
import { ErrorText } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { type GatewayEvent, onEvent } from '../../live'
import { href } from '../../router'
import type { Session } from '../../sessions'
import { Compose } from './compose'
import { type MediaLoader, createMediaLoader } from './media'
import { MessageItem } from './message-item'
import { type Chat, type Message, PAGE_SIZE, inChat, mergeMessage, place } from './rules'
import { texts } from './texts'

const t = translator(texts)

interface MessagePage {
  messages: Message[]
  nextCursor: string | null
}

/** What an event says about a message's record, in the record's own fields. */
function changeFrom(event: GatewayEvent): Partial<Message> {
  const data = event.data as Partial<Message>
  if (event.type === 'message.received') return { ...data, status: 'received' }
  if (event.type === 'message.deleted') return { ...data, status: 'deleted' }
  return data
}

export function Conversation({
  session,
  chatId,
  chat,
  names,
}: {
  session: Session
  chatId: string
  chat: Chat | undefined
  names: Map<string, string>
}) {
  const sessionId = session.sessionId
  const connected = session.status === 'connected'
  const [messages, setMessages] = useState<Message[]>([]) // oldest first
  const [cursor, setCursor] = useState<string | null>(null)
  const [loaded, setLoaded] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [replyTo, setReplyTo] = useState<Message | null>(null)
  const loader = useRef<MediaLoader | null>(null)
  if (!loader.current) loader.current = createMediaLoader(sessionId)
  const box = useRef<HTMLDivElement | null>(null)
  /** How to place the scroll after the next render: at the end, or where the reader was. */
  const scroll = useRef<{ kind: 'end' } | { kind: 'keep'; fromEnd: number } | null>(null)
  const marking = useRef(false)

  const shown = useRef<Message[]>([])
  shown.current = messages
  const current = useRef(chat) // the list's entry, read after mount too (its LID ties events to the chat)
  current.current = chat
  const olderPages = useRef(false)
  olderPages.current = cursor !== null

  const upsert = (change: Partial<Message> & { messageId: string }) => {
    const element = box.current
    const atEnd = !element || element.scrollHeight - element.scrollTop - element.clientHeight < 80
    setMessages((list) => {
      const at = list.findIndex((m) => m.messageId === change.messageId)
      if (at < 0) {
        const next = place(list, change as Message, olderPages.current)
        // A new last message: follow it if the reader is at the end.
        if (atEnd && next.at(-1)?.messageId === change.messageId) scroll.current = { kind: 'end' }
        return next
      }
      const next = list.slice()
      next[at] = mergeMessage(list[at], change)
      return next
    })
  }
  const readRecord = (messageId: string) =>
    api<Message>('GET', path`/v1/message/${messageId}?sessionId=${sessionId}`).then(upsert, () => {})

  const readPage = (before: string | null) =>
    api<MessagePage>(
      'GET',
      before
        ? path`/v1/message/all?sessionId=${sessionId}&phone=${chatId}&limit=${PAGE_SIZE}&cursor=${before}`
        : path`/v1/message/all?sessionId=${sessionId}&phone=${chatId}&limit=${PAGE_SIZE}`,
    )

  useEffect(() => {
    readPage(null).then(
      (page) => {
        scroll.current = { kind: 'end' }
        setMessages((live) => {
          // Messages events brought while the page was read go where their time puts them.
          const ids = new Set(page.messages.map((m) => m.messageId))
          let list = page.messages.slice().reverse()
          for (const m of live) if (!ids.has(m.messageId)) list = place(list, m, page.nextCursor !== null)
          return list
        })
        setCursor(page.nextCursor)
        setLoaded(true)
      },
      (failure: Error) => {
        setError(failure.message)
        setLoaded(true)
      },
    )
    const off = onEvent((event) => {
      if (event.sessionId !== sessionId || !event.type.startsWith('message.')) return
      const data = event.data as { messageId?: string; phone?: unknown; lid?: unknown }
      if (!data.messageId || !inChat({ chat: chatId, lid: current.current?.lid }, data)) return
      const messageId = data.messageId
      // Votes and reactions name the message they change; its record holds the tally.
      if (event.type === 'message.poll_vote' || event.type === 'message.reaction') return void readRecord(messageId)
      if (shown.current.some((m) => m.messageId === messageId)) upsert({ ...changeFrom(event), messageId })
      else void readRecord(messageId) // a new message: its record has what the event lacks (its time)
    })
    return () => {
      off()
      loader.current?.dispose()
    }
  }, [])

  useLayoutEffect(() => {
    const element = box.current
    const wanted = scroll.current
    if (!element || !wanted) return
    scroll.current = null
    element.scrollTop = wanted.kind === 'end' ? element.scrollHeight : element.scrollHeight - wanted.fromEnd
  })

  // A photo or player grows its message once its file is in: a reader at the end stays there.
  useEffect(() => {
    const element = box.current
    if (!element) return
    let atEnd = true
    const track = () => {
      atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 80
    }
    const keep = () => {
      if (atEnd) element.scrollTop = element.scrollHeight
    }
    element.addEventListener('scroll', track)
    element.addEventListener('load', keep, true) // load and loadedmetadata do not bubble: caught on the way down
    element.addEventListener('loadedmetadata', keep, true)
    return () => {
      element.removeEventListener('scroll', track)
      element.removeEventListener('load', keep, true)
      element.removeEventListener('loadedmetadata', keep, true)
    }
  }, [])

  // Read while open: what is unread here is marked read once shown, and again as more arrives.
  const unread = messages.filter((m) => m.direction === 'inbound' && m.status === 'received').length
  const listed = chat?.unreadCount ?? 0
  useEffect(() => {
    if (!loaded || !connected || marking.current || (unread === 0 && listed === 0)) return
    marking.current = true
    api('POST', '/v1/chat/read', { sessionId, phone: chatId })
      .catch((failure: Error) => setError(t('markReadFailed', { error: failure.message })))
      .finally(() => {
        marking.current = false
      })
  }, [loaded, connected, unread, listed])

  const older = () => {
    if (!cursor) return
    readPage(cursor).then(
      (page) => {
        const element = box.current
        if (element) scroll.current = { kind: 'keep', fromEnd: element.scrollHeight - element.scrollTop }
        setMessages((list) => {
          const ids = new Set(list.map((m) => m.messageId))
          return [...page.messages.filter((m) => !ids.has(m.messageId)).reverse(), ...list]
        })
        setCursor(page.nextCursor)
      },
      (failure: Error) => setError(failure.message),
    )
  }

  const chatName = chat?.name ?? chat?.phone ?? chatId
  const senderOf = (m: Message) => {
    if (m.direction === 'outbound') return t('you')
    if (!chat?.isGroup && !chatId.endsWith('@g.us')) return chatName
    return (m.participant && names.get(m.participant)) ?? m.participant ?? chatName
  }
  const byId = new Map(messages.map((m) => [m.messageId, m]))

  return (
    <section class="conversation" id="conversation" data-chat={chatId} aria-labelledby="conversation-title">
      <a class="inbox-back" id="inbox-back" href={href({ screen: 'session', sessionId, tab: 'inbox', item: null })}>
        {t('backToChats')}
      </a>
      <h2 id="conversation-title">
        {chatName}
        {chat?.isGroup ? <span class="status group">{t('group')}</span> : null}
      </h2>
      <div class="message-box" ref={box} role="log" tabindex={0} aria-label={t('conversationLog', { name: chatName })}>
        {cursor ? (
          <button type="button" class="plain small" id="load-older" onClick={older}>
            {t('loadOlder')}
          </button>
        ) : loaded && messages.length > 0 ? (
          <p class="muted small">{t('startOfChat')}</p>
        ) : null}
        {loaded ? null : <p class="muted">{t('loading')}</p>}
        {loaded && messages.length === 0 ? <p class="muted">{t('noMessages')}</p> : null}
        <ol class="messages" id="conversation-messages">
          {messages.map((m) => (
            <MessageItem
              key={m.messageId}
              message={m}
              quoted={m.quoteId ? (byId.get(m.quoteId) ?? null) : undefined}
              senderOf={senderOf}
              loader={loader.current as MediaLoader}
              onReply={setReplyTo}
            />
          ))}
        </ol>
      </div>
      <ErrorText id="conversation-error" message={error} />
      <Compose
        sessionId={sessionId}
        chatId={chatId}
        connected={connected}
        replyTo={replyTo}
        replyToName={replyTo ? senderOf(replyTo) : ''}
        onCancelReply={() => setReplyTo(null)}
        onSent={(record) => upsert(record)}
      />
    </section>
  )
}
