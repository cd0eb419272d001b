import { S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import { serverQuery } from '../socket/server-query'
import { EngineError } from '../port'

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

/**
 * The push name is an app-state setting (critical_block), patched through Baileys'
 * updateProfileName: the patch's encryption, MACs and versioning are Baileys' to keep. rc14's
 * app-state queries resolve `undefined` when WhatsApp stays silent and Baileys carries on as if
 * answered (its resync even asks again without end), so silence is told by the clock: a change
 * that took the query timeout had a query go unanswered, and one still running at twice that is
 * given up. Either way WhatsApp may yet apply it, and the caller is told so.
 */
export async function setOwnName(socket: WASocket, name: string, queryTimeoutMs: number): Promise<void> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new EngineError('timeout', 'WhatsApp did not confirm the name change in time')),
      2 * queryTimeoutMs,
    )
  })
  const change = socket.updateProfileName(name)
  change.catch(() => {}) // still settles after a deadline: nobody is left to hear it
  try {
    await Promise.race([change, deadline])
  } finally {
    clearTimeout(timer)
  }
  if (Date.now() - started >= queryTimeoutMs)
    throw new EngineError('timeout', 'WhatsApp did not confirm the name change in time')
}
