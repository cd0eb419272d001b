/*
 * What the API says a message holds, as the engine describes it, the services store it and the
 * schemas publish it: summaries only, never media bytes or keys.
 */

/** A summary of what a message says; never media bytes or keys. */
export interface MessageContent {
  text?: string
  caption?: string
  mimetype?: string
  seconds?: number
  width?: number
  height?: number
  animated?: boolean
  fileName?: string
  /** Videos sent to play as a looping GIF. */
  gifPlayback?: boolean
  /** Contact cards, sent or received (received: parsed from the vCards): each person's name and phone digits. */
  contacts?: { name: string; phones: string[]; organization?: string; email?: string }[]
  latitude?: number
  longitude?: number
  name?: string
  /** Inbound media: what the file is (GET /v1/message/{id}/media serves it). */
  media?: MediaSummary
  /** list_reply / buttons_reply: the row or button the person picked. */
  selectedId?: string
  /** Inbound messages of a kind the gateway does not map: Baileys' content key. */
  kind?: string
  /** Interactive messages we sent. */
  buttonText?: string
  title?: string
  footer?: string
  sections?: { title: string; rows: { title: string; rowId: string; description?: string }[] }[]
  buttons?: { buttonId: string; buttonText: string }[]
  /** Polls: the question, the options in order, how many one person may pick (0: any number). */
  question?: string
  options?: string[]
  selectableCount?: number
  /** Polls this session sent: per option, in order, how many picked it and who (current votes only). */
  votes?: PollTally
  /** Each person's current reaction to this message (one per person; removing one deletes it). */
  reactions?: MessageReaction[]
  /** Sent through POST /v1/message/{messageId}/forward: shown to the recipient as forwarded. */
  forwarded?: boolean
  /**
   * Texts with a URL sent with previews on: what the preview showed, or null when none could be
   * made (the page failed, was too slow, or had no title) and the text went without one.
   */
  linkPreview?: LinkPreviewSummary | null
}

/** A text's link preview as sent: the URL it is of, the page's title and description, whether it had a picture. */
export interface LinkPreviewSummary {
  url: string
  title: string
  description?: string
  thumbnail: boolean
}

/** One option of a poll's tally; a voter is a phone number (digits), else `<digits>@lid`. */
export type PollTally = { option: string; count: number; voters: string[] }[]

/** Who reacted (digits, else `<digits>@lid`), with which emoji, when. */
export interface MessageReaction {
  from: string
  emoji: string
  reactedAt: string
}

/** What the API says about a file someone sent (never its keys or where WhatsApp keeps it). */
export interface MediaSummary {
  mimetype: string
  /** Bytes, as the sender declared them (the download checks it). */
  size: number
  /** SHA-256 of the file, hex; also its ETag. */
  sha256: string
  fileName?: string
  seconds?: number
  width?: number
  height?: number
}
