import type { WASocket } from '@whiskeysockets/baileys'
import { decryptMediaRetryData, encryptMediaRetryRequest, getUrlFromDirectPath, proto } from '@whiskeysockets/baileys'
import { mediaAttachment } from './media-attachment'
import { EngineError, type MediaMessageRef } from '../port'

type MediaUpdate = Parameters<Parameters<WASocket['ev']['on']>[1]>[0]

/**
 * Asks the account's phone to upload a file again (Baileys' media retry: a `server-error`
 * receipt to our own number, answered by a `mediaretry` notification carrying the new direct
 * path under a key derived from the media key). The same protocol as Baileys'
 * updateMediaMessage, whose wait has no timeout and whose listener outlives a request the phone
 * never answers; here both end at `timeoutMs`. Answers the proto pointing at the new upload on
 * the host media_conn names, as updateMediaMessage does.
 */
export async function reuploadMedia(
  socket: WASocket,
  message: MediaMessageRef,
  timeoutMs: number,
): Promise<Uint8Array> {
  const decoded = proto.Message.decode(message.payload)
  const attachment = mediaAttachment(decoded)
  if (!attachment) throw new EngineError('no_media', 'the message carries no file')
  const me = socket.user?.id
  if (!me) throw new EngineError('not_connected', 'the session is not logged in')
  await socket.refreshMediaConn(false)
  const key = {
    id: message.id,
    remoteJid: message.chatJid,
    fromMe: message.fromMe,
    ...(message.participant ? { participant: message.participant } : {}),
  }
  const mediaKey = attachment.media.mediaKey!
  const directPath = await new Promise<string>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer)
      socket.ev.off('messages.media-update', onUpdate)
      outcome()
    }
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new EngineError('timeout', `the phone did not answer the media retry within ${timeoutMs} ms`)),
        ),
      timeoutMs,
    )
    const onUpdate = (updates: MediaUpdate) => {
      const update = (
        updates as { key: { id?: string | null }; error?: Error; media?: { ciphertext: Uint8Array; iv: Uint8Array } }[]
      ).find((u) => u.key.id === message.id)
      if (!update) return
      finish(() => {
        try {
          if (update.error || !update.media)
            throw new EngineError(
              'gone',
              `the phone could not upload the file again (${update.error?.message ?? 'no answer'})`,
            )
          const answer = decryptMediaRetryData(update.media, mediaKey, message.id)
          if (answer.result !== proto.MediaRetryNotification.ResultType.SUCCESS || !answer.directPath)
            throw new EngineError(
              'gone',
              `the phone answered ${proto.MediaRetryNotification.ResultType[answer.result ?? 0]}`,
            )
          resolve(answer.directPath)
        } catch (error) {
          reject(
            error instanceof EngineError
              ? error
              : new EngineError('gone', `the phone's answer does not open (${(error as Error).message})`),
          )
        }
      })
    }
    socket.ev.on('messages.media-update', onUpdate)
    socket
      .sendNode(encryptMediaRetryRequest(key, mediaKey, me))
      .catch((error: unknown) =>
        finish(() => reject(new EngineError('upstream', `the media retry was not sent (${(error as Error).message})`))),
      )
  })
  attachment.media.directPath = directPath
  attachment.media.url = getUrlFromDirectPath(directPath, socket.getMediaHost())
  return proto.Message.encode(decoded).finish()
}
