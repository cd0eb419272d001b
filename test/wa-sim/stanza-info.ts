// What a contact can tell about the <message> stanza a message arrived in, besides its payload:
// the stanza type, the edit attribute, and the extra top-level nodes a client attached (e.g. the
// <biz> node of native-flow interactive messages), as plain JSON so tests and the control API
// can assert the stanza shape.
import type { BinaryNode } from '@whiskeysockets/baileys'
import { childrenOf } from './node-utils'

/** A binary node as plain JSON: child nodes in `content`, binary content as base64 in `bytes`. */
export interface JsonNode {
  tag: string
  attrs: Record<string, string>
  content?: JsonNode[]
  bytes?: string
  text?: string
}

export interface StanzaInfo {
  /** <message type>: 'text', 'media', 'reaction', 'poll', ... */
  type: string
  /** <message edit>: '1' edit, '7' sender revoke, '8' admin revoke, '2' pin (absent for plain messages) */
  edit?: string
  /** <enc mediatype> of the device's <enc>, when the client set one ('image', 'ptt', 'sticker', ...) */
  mediatype?: string
  /** Top-level children other than the encryption plumbing (<participants>, <enc>, <device-identity>) */
  nodes: JsonNode[]
}

/** Children every encrypted message carries; only what a client adds beyond them is recorded. */
const PLUMBING = new Set(['participants', 'enc', 'device-identity'])

export const toJsonNode = (node: BinaryNode): JsonNode => {
  const json: JsonNode = { tag: node.tag, attrs: { ...node.attrs } }
  if (Array.isArray(node.content)) json.content = node.content.map(toJsonNode)
  else if (node.content instanceof Uint8Array) json.bytes = Buffer.from(node.content).toString('base64')
  else if (typeof node.content === 'string') json.text = node.content
  return json
}

export const stanzaInfoOf = (node: BinaryNode, enc?: BinaryNode): StanzaInfo => ({
  type: node.attrs.type ?? '',
  ...(node.attrs.edit ? { edit: node.attrs.edit } : {}),
  ...(enc?.attrs.mediatype ? { mediatype: enc.attrs.mediatype } : {}),
  nodes: childrenOf(node)
    .filter((child) => !PLUMBING.has(child.tag))
    .map(toJsonNode),
})
