// Small helpers for building and reading binary nodes.
import type { BinaryNode } from '@whiskeysockets/baileys'

export const S_WHATSAPP_NET = 's.whatsapp.net'

/** Baileys addresses server iqs as `@s.whatsapp.net` (its S_WHATSAPP_NET) or, in places, `s.whatsapp.net`. */
export const isServerJid = (to: string | undefined): boolean => to === S_WHATSAPP_NET || to === `@${S_WHATSAPP_NET}`

export const unixNow = (): string => String(Math.floor(Date.now() / 1000))

export const childrenOf = (node: BinaryNode | undefined): BinaryNode[] =>
  Array.isArray(node?.content) ? node.content : []

export const childOf = (node: BinaryNode | undefined, tag: string): BinaryNode | undefined =>
  childrenOf(node).find((child) => child.tag === tag)

export const contentBytes = (node: BinaryNode | undefined): Buffer | undefined => {
  const content = node?.content
  if (content instanceof Uint8Array) return Buffer.from(content)
  if (typeof content === 'string') return Buffer.from(content, 'utf-8')
  return undefined
}

export const iqResult = (request: BinaryNode, content?: BinaryNode[]): BinaryNode => ({
  tag: 'iq',
  attrs: { from: request.attrs.to ?? S_WHATSAPP_NET, type: 'result', id: request.attrs.id ?? '' },
  ...(content ? { content } : {}),
})

export const iqError = (request: BinaryNode, code: number, text: string): BinaryNode => ({
  tag: 'iq',
  attrs: { from: request.attrs.to ?? S_WHATSAPP_NET, type: 'error', id: request.attrs.id ?? '' },
  content: [{ tag: 'error', attrs: { code: String(code), text } }],
})

let counter = 0
export const serverMessageId = (prefix = '3EB0'): string =>
  `${prefix}${Date.now().toString(16).toUpperCase()}${(counter++).toString(16).toUpperCase().padStart(4, '0')}`

/** Where statuses (stories) are sent and come from: a broadcast with sender keys, like a group. */
export const STATUS_JID = 'status@broadcast'
