import type { ChatJid } from './index'

/*
 * The labels part of the engine port (beside index.ts): WhatsApp Business labels, which are
 * app-state (the `regular` collection) shared by the phone and its linked devices.
 */

/** A label as WhatsApp keeps it. `color` is an index into WhatsApp's palette of 20 (0–19). */
export interface Label {
  /** WhatsApp's id: a short number as a string ("1", "2", …). */
  id: string
  name: string
  color: number
  /** One of WhatsApp's predefined labels (New customer, …), when it is one. */
  predefinedId?: string
}

/** A label change, from the phone or from this device alike: app-state sync reports both. */
export type LabelChange =
  | { kind: 'edited'; label: Label }
  | { kind: 'deleted'; labelId: string }
  | { kind: 'chat'; labelId: string; chatJid: ChatJid; labeled: boolean }
  | { kind: 'message'; labelId: string; chatJid: ChatJid; messageId: string; labeled: boolean }

/** The account's labels (SessionHandle.labels): each command is one app-state patch. */
export interface SessionLabels {
  /**
   * Whether the account is a WhatsApp Business one (only those have labels): asked of WhatsApp
   * once per connection (its own business profile), then remembered.
   */
  isBusiness(): Promise<boolean>
  /** Whether the app-state key reached this device: every label change is a patch encrypted with it. */
  readonly canEdit: boolean
  /** Creates or changes a label (the whole label: WhatsApp keeps the last one written). */
  save(label: Label): Promise<void>
  remove(labelId: string): Promise<void>
  setChatLabel(chatJid: ChatJid, labelId: string, labeled: boolean): Promise<void>
  setMessageLabel(chatJid: ChatJid, messageId: string, labelId: string, labeled: boolean): Promise<void>
}
