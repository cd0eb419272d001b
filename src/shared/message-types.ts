/** Record types: what the gateway sends, plus what inbound messages bring (no Baileys needed to name them). */
export const messageTypes = [
  'text',
  'image',
  'audio',
  'ptt',
  'sticker',
  'location',
  'list',
  'buttons',
  'video',
  'document',
  'contact',
  'poll',
  'list_reply',
  'buttons_reply',
  'unknown',
] as const
export type MessageType = (typeof messageTypes)[number]
