/**
 * Received files shown in a conversation. GET /v1/message/{id}/media needs the key in a header, so
 * an <img src> cannot name it: each file is fetched, held as a blob and shown by a blob: URL (the
 * panel's CSP allows blob: for images and media for this alone). A conversation owns one loader:
 * it fetches a few files at a time, and revokes every URL it made when the conversation closes.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import { ApiError, authHeaders, base, path } from '../../api'
import { translator } from '../../i18n'
import { formatBytes, typeLabel } from './model'
import type { Message } from './rules'
import { texts } from './texts'

const t = translator(texts)

/** Files at most this large load as the conversation shows them; larger ones on a click. */
const AUTO_LOAD_BYTES = 2 * 1024 * 1024
/** Files larger than this are not loaded into the page at all (the API serves them to other clients). */
const MAX_LOAD_BYTES = 32 * 1024 * 1024
/** Downloads at once: a chat full of photos must not open dozens of requests. */
const PARALLEL = 3

export interface MediaLoader {
  /** A blob: URL of the message's file (one download per message, however often asked). */
  load(messageId: string): Promise<string>
  dispose(): void
}

export function createMediaLoader(sessionId: string): MediaLoader {
  const urls = new Map<string, Promise<string>>()
  const made: string[] = []
  const waiting: (() => void)[] = []
  const controller = new AbortController()
  let running = 0

  const slot = () => (running < PARALLEL ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)))
  const fetchOne = async (messageId: string) => {
    await slot()
    running++
    try {
      if (controller.signal.aborted) throw new Error('closed')
      const response = await fetch(base + path`/v1/message/${messageId}/media?sessionId=${sessionId}`, {
        headers: authHeaders(),
        signal: controller.signal,
      })
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { message?: string; error?: string } | null
        throw new ApiError(body?.message ?? response.statusText, response.status, body?.error ?? null)
      }
      if (Number(response.headers.get('content-length') ?? 0) > MAX_LOAD_BYTES)
        throw new Error(formatBytes(MAX_LOAD_BYTES))
      const url = URL.createObjectURL(await response.blob())
      if (controller.signal.aborted) URL.revokeObjectURL(url)
      else made.push(url)
      return url
    } finally {
      running--
      waiting.shift()?.()
    }
  }
  return {
    load(messageId) {
      let url = urls.get(messageId)
      if (!url) {
        url = fetchOne(messageId)
        // A failed download may be asked again (the phone may upload an expired file anew).
        url.catch(() => urls.delete(messageId))
        urls.set(messageId, url)
      }
      return url
    },
    dispose() {
      controller.abort()
      for (const url of made) URL.revokeObjectURL(url)
      made.length = 0
      for (const resolve of waiting.splice(0)) resolve()
    },
  }
}

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'shown'; url: string } | { kind: 'failed'; error: string }

/** A message's file: a thumbnail, a player, or a button that saves it. */
export function MediaView({ message, loader }: { message: Message; loader: MediaLoader }) {
  const media = message.content.media
  const [state, setState] = useState<State>({ kind: 'idle' })
  const size = media?.size ?? 0
  const kind = typeLabel(message.type)
  const isDocument = message.type === 'document'
  const show = () => {
    setState({ kind: 'loading' })
    loader.load(message.messageId).then(
      (url) => setState({ kind: 'shown', url }),
      (error: Error) => setState({ kind: 'failed', error: error.message }),
    )
  }
  useEffect(() => {
    if (media && !isDocument && size <= AUTO_LOAD_BYTES) show()
  }, [message.messageId])
  if (!media) return null
  if (size > MAX_LOAD_BYTES) return <p class="muted small">{t('mediaTooLarge', { kind, size: formatBytes(size) })}</p>

  if (isDocument) {
    const name = media.fileName ?? message.content.fileName ?? kind
    return (
      <div>
        <button
          type="button"
          class="plain small media-save"
          onClick={() =>
            loader.load(message.messageId).then(
              (url) => {
                const link = document.createElement('a')
                link.href = url
                link.download = name
                link.click()
              },
              (error: Error) => setState({ kind: 'failed', error: error.message }),
            )
          }
        >
          {t('saveFile', { name })} ({formatBytes(size)})
        </button>
        {state.kind === 'failed' ? <p class="error small">{t('mediaFailed', { error: state.error })}</p> : null}
      </div>
    )
  }
  if (state.kind === 'idle')
    return (
      <button type="button" class="plain small media-show" onClick={show}>
        {t('showMedia', { kind, size: formatBytes(size) })}
      </button>
    )
  if (state.kind === 'loading') return <p class="muted small">{t('mediaLoading', { kind })}</p>
  if (state.kind === 'failed') return <p class="error small">{t('mediaFailed', { error: state.error })}</p>
  const label = message.content.caption ?? kind
  if (message.type === 'image' || message.type === 'sticker')
    return (
      <img
        class={`media ${message.type}`}
        src={state.url}
        alt={label}
        width={media.width}
        height={media.height}
        loading="lazy"
      />
    )
  if (message.type === 'video')
    // biome-ignore lint/a11y/useMediaCaption: a received video has no caption track to give
    return <video class="media" src={state.url} controls preload="metadata" aria-label={label} />
  // biome-ignore lint/a11y/useMediaCaption: a received voice note or audio file has no caption track
  return <audio class="media" src={state.url} controls preload="metadata" aria-label={label} />
}
