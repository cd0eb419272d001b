import { S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import { serverQuery } from '../socket/server-query'
import { appStatePatch } from '../socket/app-state-patch'

/** The about text: one `status` iq, as Baileys' updateProfileStatus sends it. */
export async function setOwnAbout(socket: WASocket, text: string): Promise<void> {
  await serverQuery(
    socket,
    {
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, type: 'set', xmlns: 'status' },
      content: [{ tag: 'status', attrs: {}, content: Buffer.from(text, 'utf-8') }],
    },
    'the about change',
  )
}

/**
 * The profile photo, as Baileys' updateProfilePicture sends it (no target: the account's own),
 * with a JPEG already made to WhatsApp's measure: Baileys' helper would re-encode it with sharp
 * or jimp, which neither the binary nor the edge carries. null removes the photo.
 */
export async function setOwnPicture(socket: WASocket, jpeg: Uint8Array | null): Promise<void> {
  await serverQuery(
    socket,
    {
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, type: 'set', xmlns: 'w:profile:picture' },
      ...(jpeg ? { content: [{ tag: 'picture', attrs: { type: 'image' }, content: Buffer.from(jpeg) }] } : {}),
    },
    jpeg ? 'the photo change' : 'the photo removal',
  )
}

/** The push name is an app-state setting (critical_block), patched through Baileys' updateProfileName. */
export function setOwnName(socket: WASocket, name: string, queryTimeoutMs: number): Promise<void> {
  return appStatePatch(() => socket.updateProfileName(name), queryTimeoutMs, 'the name change')
}
