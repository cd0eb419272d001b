/** One message of a conversation: who, what (text, a file, a quote), when, and how far it got. */
import { translator } from '../../i18n'
import type { MediaLoader } from './media'
import { MediaView } from './media'
import { formatWhen, statusLabel, summary } from './model'
import type { Message } from './rules'
import { texts } from './texts'

const t = translator(texts)

export type Sender = (message: Message) => string

export function MessageItem({
  message,
  quoted,
  senderOf,
  loader,
  onReply,
}: {
  message: Message
  /** The quoted message when it is loaded; undefined when the message quotes none. */
  quoted: Message | null | undefined
  senderOf: Sender
  loader: MediaLoader
  onReply: (message: Message) => void
}) {
  const c = message.content ?? {}
  const deleted = message.status === 'deleted'
  const textId = `message-text-${message.messageId}`
  const text = deleted ? t('deleted') : (c.text ?? c.caption ?? (c.media ? '' : summary(message)))
  return (
    <li
      class={`message ${message.direction}`}
      data-id={message.messageId}
      data-direction={message.direction}
      data-status={message.status}
    >
      <p class="sender">{senderOf(message)}</p>
      {message.quoteId ? (
        <blockquote class="quote" data-quote={message.quoteId}>
          <span class="small">{t('inReplyTo', { name: quoted ? senderOf(quoted) : t('earlierMessage') })}</span>
          {quoted ? <span class="quote-text">{summary(quoted)}</span> : null}
        </blockquote>
      ) : null}
      {!deleted && c.media ? <MediaView message={message} loader={loader} /> : null}
      {text ? (
        <p class={deleted ? 'text deleted' : 'text'} id={textId}>
          {text}
        </p>
      ) : null}
      {c.reactions?.length ? (
        <p class="reactions">
          <span class="visually-hidden">{t('reactions')} </span>
          {c.reactions.map((reaction) => reaction.emoji).join(' ')}
        </p>
      ) : null}
      <p class="meta small">
        <span>{formatWhen(message.createdAt)}</span>
        {message.editedAt ? <span> · {t('edited')}</span> : null}
        {message.source === 'history' ? <span class="history-tag"> · {t('fromHistory')}</span> : null}
        {message.direction === 'outbound' ? (
          <span class={`status ${message.status}`} data-status={message.status}>
            {statusLabel(message.status)}
          </span>
        ) : null}
        {deleted ? null : (
          <button
            type="button"
            class="plain small reply-to"
            aria-describedby={text ? textId : undefined}
            onClick={() => onReply(message)}
          >
            {t('reply')}
          </button>
        )}
      </p>
      {message.status === 'failed' && message.statusReason ? (
        <p class="error small">{t('failedBecause', { reason: message.statusReason })}</p>
      ) : null}
    </li>
  )
}
