/*
 * The messages part of the engine port: what the engine reports of a chat's messages (received,
 * changed, the account's own, reactions, poll votes) and what the services hand it to send.
 */
import type { MessageContent } from '../../../shared/message-content'
import type { MessageType } from '../../../shared/message-types'

/** A message someone sent to the session's account, mapped out of Baileys' shape. */
export interface InboundMessage {
  id: string
  /** The chat as WhatsApp addressed it: `<pn>@s.whatsapp.net`, `<lid>@lid` or `<id>@g.us`. */
  chatJid: string
  /** 1:1: the other party's phone (digits) and LID, whichever WhatsApp revealed. */
  phone?: string
  lid?: string
  /** Groups: who wrote it. */
  participantPhone?: string
  participantLid?: string
  type: MessageType
  content: MessageContent
  quoteId?: string
  timestamp: Date
  pushName?: string
  /** proto.Message encoded, kept so replies can quote it. */
  payload: Uint8Array
}

/** A later change to a message: edited text or revoked for everyone. */
export type InboundChange =
  | { kind: 'edited'; id: string; chatJid: string; fromMe: boolean; content: MessageContent }
  | { kind: 'revoked'; id: string; chatJid: string; fromMe: boolean }

/**
 * A message the account itself sent from WhatsApp (its phone or another linked device), or
 * one this gateway sent coming back: Baileys gives both as `fromMe` upserts.
 */
export interface OwnMessage {
  id: string
  /** The chat as WhatsApp addressed it: `<pn>@s.whatsapp.net`, `<lid>@lid` or `<id>@g.us`. */
  chatJid: string
  /** 1:1: the recipient's phone (digits) and LID, whichever WhatsApp revealed. */
  phone?: string
  lid?: string
  type: MessageType
  content: MessageContent
  quoteId?: string
  timestamp: Date
  /** proto.Message encoded, kept so replies can quote it (and votes on its poll decrypt). */
  payload: Uint8Array
}

/** A decrypted vote on one of the account's polls: the options the voter picks now ([]: none). */
export interface PollVote {
  /** The vote message's own id. */
  id: string
  pollId: string
  chatJid: string
  /** 1:1: the other party's phone and LID, whichever WhatsApp revealed. */
  phone?: string
  lid?: string
  fromMe: boolean
  voterPhone?: string
  voterLid?: string
  /** Option names, in the poll's order. */
  selectedOptions: string[]
  timestamp: Date
}

/** Someone (or the account's own phone) set or removed a reaction on a message of a chat. */
export interface Reaction {
  /** The reaction message's own id. */
  id: string
  /** The chat as WhatsApp addressed it. */
  chatJid: string
  /** 1:1: the other party's phone and LID, whichever WhatsApp revealed. */
  phone?: string
  lid?: string
  /** From the account itself (its phone or another linked device). */
  fromMe: boolean
  reactorPhone?: string
  reactorLid?: string
  /** The reacted message: its id, and whether the account sent it. */
  targetId: string
  targetFromMe: boolean
  /** The emoji; '' when the reaction was removed. */
  emoji: string
  /** When the reactor's phone set it (its own clock). */
  timestamp: Date
}

export interface ListSection {
  title: string
  rows: { title: string; rowId: string; description?: string }[]
}

export interface ReplyButton {
  buttonId: string
  buttonText: string
}

/** The message a reaction goes on, as the account sees it. */
export interface ReactionTarget {
  id: string
  chatJid: string
  /** Whether the account wrote it. */
  fromMe: boolean
  /** Groups, someone else's message: its author's jid. */
  participant?: string
}

/** The message a forward sends again: its key and its proto as the record keeps it. */
export interface ForwardedOriginal {
  id: string
  chatJid: string
  fromMe: boolean
  /** proto.Message encoded. */
  payload: Uint8Array
}

/** What a text's link preview shows; the thumbnail a small JPEG. */
export interface LinkPreviewContent {
  /** The URL as written in the text. */
  matchedText: string
  /** The page's URL after redirects. */
  canonicalUrl: string
  title: string
  description?: string
  jpegThumbnail?: Uint8Array
}

/**
 * Everything the gateway can send, already fetched and converted: the engine uploads and
 * encrypts but never fetches a URL or transcodes.
 */
export type OutboundContent =
  /** preview: made by the services through the guarded fetcher; Baileys never fetches one. */
  | { kind: 'text'; text: string; preview?: LinkPreviewContent }
  | { kind: 'image'; data: Uint8Array; mimetype: string; width?: number; height?: number; caption?: string }
  | { kind: 'audio'; data: Uint8Array; mimetype: string; seconds?: number }
  | { kind: 'voice'; data: Uint8Array; mimetype: string; seconds: number; waveform?: Uint8Array }
  | { kind: 'sticker'; data: Uint8Array; mimetype: string; animated: boolean; width: number; height: number }
  | {
      kind: 'video'
      data: Uint8Array
      mimetype: string
      seconds: number
      width: number
      height: number
      /** JPEG; given so Baileys never runs its own thumbnailer (an unbounded `ffmpeg` from PATH). */
      thumbnail: Uint8Array
      caption?: string
      gifPlayback: boolean
    }
  | { kind: 'document'; data: Uint8Array; mimetype: string; fileName: string; caption?: string }
  | { kind: 'contacts'; displayName: string; cards: { displayName: string; vcard: string }[] }
  | { kind: 'location'; latitude: number; longitude: number }
  | { kind: 'list'; text: string; buttonText: string; title?: string; footer?: string; sections: ListSection[] }
  | { kind: 'buttons'; text: string; footer?: string; buttons: ReplyButton[] }
  /** Baileys adds the poll's secret (messageContextInfo.messageSecret) that votes are encrypted with. */
  | { kind: 'poll'; question: string; options: string[]; selectableCount: number }
  /** '' removes the account's reaction. */
  | { kind: 'reaction'; target: ReactionTarget; emoji: string }
  /**
   * A recorded message sent again, marked as forwarded: its proto as kept, so media goes with the
   * upload it names (url, directPath, mediaKey) and nothing is fetched or uploaded again.
   */
  | { kind: 'forward'; original: ForwardedOriginal }
