/** The stand-in's records, shaped after Chatwoot's tables (db/schema.rb), camel-cased. */

export interface User {
  id: number
  name: string
  email: string
}

export interface Inbox {
  id: number
  channelId: number
  name: string
  channelType: 'Channel::Api'
  webhookUrl: string | null
  /** Channel::Api#identifier (the public API's inbox identifier) and hmac_token. */
  identifier: string
  hmacToken: string
  createdAt: Date
}

export interface Contact {
  id: number
  name: string
  email: string | null
  phoneNumber: string | null
  identifier: string | null
  blocked: boolean
  additionalAttributes: Record<string, unknown>
  customAttributes: Record<string, unknown>
  createdAt: Date
  updatedAt: Date
  lastActivityAt: Date | null
}

export interface ContactInbox {
  id: number
  contactId: number
  inboxId: number
  sourceId: string
  hmacVerified: boolean
  pubsubToken: string
  createdAt: Date
  updatedAt: Date
}

export type ConversationStatus = 'open' | 'resolved' | 'pending' | 'snoozed'

export interface Conversation {
  /** Chatwoot's display_id, the id every API path and answer uses (one account: also its row id). */
  id: number
  uuid: string
  inboxId: number
  contactId: number
  contactInboxId: number
  status: ConversationStatus
  snoozedUntil: Date | null
  additionalAttributes: Record<string, unknown>
  customAttributes: Record<string, unknown>
  createdAt: Date
  updatedAt: Date
  lastActivityAt: Date
}

export interface Attachment {
  id: number
  messageId: number
  /** Attachment#file_type as FileTypeHelper#file_type derives it from the content type. */
  fileType: 'image' | 'audio' | 'video' | 'file'
  fileName: string
  mimeType: string
  bytes: Uint8Array
}

export type MessageType = 'incoming' | 'outgoing' | 'activity' | 'template'

export interface Message {
  id: number
  conversationId: number
  inboxId: number
  content: string | null
  messageType: MessageType
  contentType: string
  contentAttributes: Record<string, unknown>
  additionalAttributes: Record<string, unknown>
  private: boolean
  sourceId: string | null
  echoId: string | null
  status: 'sent' | 'delivered' | 'read' | 'failed'
  senderType: 'Contact' | 'User' | null
  senderId: number | null
  attachments: Attachment[]
  createdAt: Date
  updatedAt: Date
}
