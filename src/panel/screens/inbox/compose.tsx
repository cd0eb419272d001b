/**
 * The reply box: a text, a file (sent as a base64 `data:` URL, which every media route takes),
 * or both (the text as its caption), optionally quoting a message (every send's `quoteId`).
 */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { ErrorText, StatusText } from '../../components/ui'
import { ApiError, api } from '../../api'
import { translator } from '../../i18n'
import { formatBytes, summary } from './model'
import { MAX_SEND_BYTES, type Message, sendRouteFor } from './rules'
import { texts } from './texts'

const t = translator(texts)

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('FileReader'))
    reader.readAsDataURL(file)
  })

export function Compose({
  sessionId,
  chatId,
  connected,
  replyTo,
  replyToName,
  onCancelReply,
  onSent,
}: {
  sessionId: string
  chatId: string
  connected: boolean
  replyTo: Message | null
  replyToName: string
  onCancelReply: () => void
  onSent: (message: Message) => void
}) {
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [busy, setBusy] = useState(false)
  const textArea = useRef<HTMLTextAreaElement | null>(null)
  const fileInput = useRef<HTMLInputElement | null>(null)

  // Opening a chat (or picking a message to answer) puts the cursor where the reply is written.
  useEffect(() => textArea.current?.focus(), [chatId, replyTo?.messageId])

  const chooseFile = (input: HTMLInputElement) => {
    const chosen = input.files?.[0] ?? null
    setError(null)
    if (chosen && chosen.size > MAX_SEND_BYTES) {
      input.value = ''
      setFile(null)
      setError(t('fileTooBig', { name: chosen.name, size: formatBytes(chosen.size), max: formatBytes(MAX_SEND_BYTES) }))
      return
    }
    setFile(chosen)
  }
  const clearFile = () => {
    if (fileInput.current) fileInput.current.value = ''
    setFile(null)
  }

  const send = async () => {
    const text = textArea.current?.value.trim() ?? ''
    setError(null)
    setStatus(null)
    if (!text && !file) return setError(t('nothingToSend'))
    const common = { sessionId, phone: chatId, ...(replyTo ? { quoteId: replyTo.messageId } : {}) }
    setBusy(true)
    try {
      if (file) {
        let data: string
        try {
          data = await readAsDataUrl(file)
        } catch (failure) {
          return setError(t('fileUnreadable', { error: (failure as Error).message }))
        }
        const { route, field } = sendRouteFor(file.type)
        // Audio carries no caption: a text beside it goes as a message of its own.
        const caption = text && route !== 'audio' ? { caption: text } : {}
        const name = route === 'document' ? { fileName: file.name } : {}
        onSent(await api<Message>('POST', `/v1/message/${route}`, { ...common, [field]: data, ...caption, ...name }))
        if (text && route === 'audio')
          onSent(await api<Message>('POST', '/v1/message/text', { ...common, message: text }))
      } else {
        onSent(await api<Message>('POST', '/v1/message/text', { ...common, message: text }))
      }
      if (textArea.current) textArea.current.value = ''
      clearFile()
      onCancelReply()
      setStatus(t('sent'))
    } catch (failure) {
      const message = (failure as Error).message
      setError(
        failure instanceof ApiError && failure.status === 413 && file
          ? `${message} ${t('fileTooBig', { name: file.name, size: formatBytes(file.size), max: formatBytes(MAX_SEND_BYTES) })}`
          : message,
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      class="compose"
      id="reply-form"
      onSubmit={(event: Event) => {
        event.preventDefault()
        if (!busy) void send()
      }}
    >
      {connected ? null : (
        <p class="muted small" id="reply-offline">
          {t('notConnected')}
        </p>
      )}
      {replyTo ? (
        <div class="replying" id="reply-quote" data-quote={replyTo.messageId}>
          <span>{t('replyingTo', { name: replyToName, text: summary(replyTo) })}</span>
          <button type="button" class="plain small" id="reply-quote-cancel" onClick={onCancelReply}>
            {t('cancelReply')}
          </button>
        </div>
      ) : null}
      <label class="reply-label">
        {t('message')}
        <textarea
          id="reply-text"
          name="message"
          rows={2}
          ref={textArea}
          aria-describedby="reply-hint"
          onKeyDown={(event: KeyboardEvent) => {
            // As in WhatsApp's own apps: Enter sends, Shift+Enter is a new line (not while composing a character).
            if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return
            event.preventDefault()
            ;(event.currentTarget as HTMLTextAreaElement).form?.requestSubmit()
          }}
        />
      </label>
      <p class="muted small" id="reply-hint">
        {t('enterHint')}
      </p>
      <div class="row compose-actions">
        <label class="file-pick">
          {t('attach', { max: formatBytes(MAX_SEND_BYTES) })}
          <input
            type="file"
            id="reply-file"
            ref={fileInput}
            onChange={(event: Event) => chooseFile(event.currentTarget as HTMLInputElement)}
          />
        </label>
        <button type="submit" id="reply-send" disabled={busy}>
          {busy ? t('sending') : t('send')}
        </button>
      </div>
      {file ? (
        <p class="small" id="reply-file-chosen">
          {t('file', { name: file.name, size: formatBytes(file.size) })}{' '}
          <button type="button" class="plain small" id="reply-file-remove" onClick={clearFile}>
            {t('removeFile')}
          </button>
        </p>
      ) : null}
      <StatusText id="reply-status" message={status} />
      <ErrorText id="reply-error" message={error} />
    </form>
  )
}
