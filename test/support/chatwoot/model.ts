import { randomUUID } from 'node:crypto'
import type { Attachment, Contact, ContactInbox, Conversation, Inbox, Message, User } from './records'

export type * from './records'

/**
 * The stand-in's in-memory Chatwoot account: its records and the rules Chatwoot's Rails models
 * and builders apply to them (each rule names the file it follows). Nothing here knows HTTP:
 * a refusal is a ChatwootError carrying the status and body Chatwoot answers with.
 */

export class ChatwootError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(JSON.stringify(body))
  }
}

export const notFound = () => new ChatwootError(404, { error: 'Resource could not be found' })

// ActiveSupport's humanize as full_messages uses it: phone_number → "Phone number", source_id → "Source".
const humanize = (attribute: string) => {
  const words = attribute.replace(/_id$/, '').replaceAll('_', ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** RequestExceptionHandler#render_record_invalid: 422 { message: full messages, attributes }. */
export function recordInvalid(errors: [attribute: string, message: string][]): ChatwootError {
  return new ChatwootError(422, {
    message: errors.map(([attribute, message]) => `${humanize(attribute)} ${message}`).join(', '),
    attributes: [...new Set(errors.map(([attribute]) => attribute))],
  })
}

/** Contact's validation of phone_number (app/models/contact.rb: /\A\+[1-9]\d{1,14}\z/). */
const E164 = /^\+[1-9]\d{1,14}$/
// Devise.email_regexp, Chatwoot's email format.
const EMAIL = /^[^@\s]+@[^@\s]+$/

/** Messages::MessageBuilder#process_attachments through FileTypeHelper#file_type. */
export function fileTypeOf(mimeType: string): Attachment['fileType'] {
  if (['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp'].includes(mimeType)) return 'image'
  if (['video/ogg', 'video/mp4', 'video/webm', 'video/quicktime'].includes(mimeType)) return 'video'
  if (mimeType.includes('audio/')) return 'audio'
  return 'file'
}

export class ChatwootAccount {
  readonly users: User[] = []
  readonly inboxes: Inbox[] = []
  readonly contacts: Contact[] = []
  readonly contactInboxes: ContactInbox[] = []
  readonly conversations: Conversation[] = []
  readonly messages: Message[] = []
  private ids = { user: 0, inbox: 0, contact: 0, contactInbox: 0, conversation: 0, message: 0, attachment: 0 }

  constructor(
    readonly id: number,
    readonly name: string,
  ) {}

  next(kind: keyof ChatwootAccount['ids']): number {
    return ++this.ids[kind]
  }

  user(name: string): User {
    const found = this.users.find((u) => u.name === name)
    if (found) return found
    const id = this.next('user')
    const user = { id, name, email: `agent${id}@chatwoot.test` }
    this.users.push(user)
    return user
  }

  inbox(id: number): Inbox {
    return this.inboxes.find((i) => i.id === id) ?? throwError(notFound())
  }

  contact(id: number): Contact {
    return this.contacts.find((c) => c.id === id) ?? throwError(notFound())
  }

  conversation(id: number): Conversation {
    return this.conversations.find((c) => c.id === id) ?? throwError(notFound())
  }

  contactInboxOf(conversation: Conversation): ContactInbox {
    return this.contactInboxes.find((ci) => ci.id === conversation.contactInboxId)!
  }

  /** InboxesController#create for `channel: { type: 'api', webhook_url }` (Channel::Api). */
  createApiInbox(params: { name?: unknown; channel?: { type?: unknown; webhook_url?: unknown } }): Inbox {
    if (params.channel?.type !== 'api')
      throw new ChatwootError(422, { error: `the stand-in has API channel inboxes only, not ${params.channel?.type}` })
    if (typeof params.name !== 'string' || !params.name.trim()) throw recordInvalid([['name', "can't be blank"]])
    const id = this.next('inbox')
    const webhookUrl = typeof params.channel.webhook_url === 'string' ? params.channel.webhook_url : null
    const inbox: Inbox = {
      id,
      channelId: id,
      name: params.name,
      channelType: 'Channel::Api',
      webhookUrl: webhookUrl || null,
      identifier: randomUUID().replaceAll('-', '').slice(0, 24),
      hmacToken: randomUUID().replaceAll('-', '').slice(0, 24),
      createdAt: new Date(),
    }
    this.inboxes.push(inbox)
    return inbox
  }

  /** Contact's validations (app/models/contact.rb), in their order, on a candidate record. */
  private validateContact(candidate: Contact): void {
    const errors: [string, string][] = []
    const others = this.contacts.filter((c) => c.id !== candidate.id)
    if (candidate.email) {
      if (others.some((c) => c.email?.toLowerCase() === candidate.email!.toLowerCase()))
        errors.push(['email', 'has already been taken'])
      if (!EMAIL.test(candidate.email)) errors.push(['email', 'Invalid email'])
    }
    if (candidate.identifier && others.some((c) => c.identifier === candidate.identifier))
      errors.push(['identifier', 'has already been taken'])
    if (candidate.phoneNumber) {
      if (others.some((c) => c.phoneNumber === candidate.phoneNumber))
        errors.push(['phone_number', 'has already been taken'])
      if (!E164.test(candidate.phoneNumber)) errors.push(['phone_number', 'should be in e164 format'])
    }
    if (errors.length) throw recordInvalid(errors)
  }

  /** ContactsController#create: the contact, then (inbox_id given) its contact_inbox, in one transaction. */
  createContact(params: Record<string, any>): { contact: Contact; contactInbox: ContactInbox | null } {
    const now = new Date()
    const contact: Contact = {
      id: this.ids.contact + 1,
      name: typeof params.name === 'string' ? params.name : '',
      // Contact#prepare_email_attribute: lower case, '' becomes nil.
      email: typeof params.email === 'string' && params.email ? params.email.toLowerCase() : null,
      phoneNumber: typeof params.phone_number === 'string' && params.phone_number ? params.phone_number : null,
      identifier: typeof params.identifier === 'string' && params.identifier ? params.identifier : null,
      blocked: params.blocked === true || params.blocked === 'true',
      additionalAttributes: isObject(params.additional_attributes) ? params.additional_attributes : {},
      customAttributes: isObject(params.custom_attributes) ? params.custom_attributes : {},
      createdAt: now,
      updatedAt: now,
      lastActivityAt: null,
    }
    this.validateContact(contact)
    const inbox = params.inbox_id === undefined || params.inbox_id === '' ? null : this.inbox(Number(params.inbox_id))
    this.next('contact')
    this.contacts.push(contact)
    const contactInbox = inbox ? this.buildContactInbox(contact, inbox, params.source_id) : null
    return { contact, contactInbox }
  }

  /** ContactsController#update: assigns the permitted fields, merging the two attribute hashes. */
  updateContact(contact: Contact, params: Record<string, any>): Contact {
    const next = { ...contact }
    if ('name' in params) next.name = String(params.name ?? '')
    if ('email' in params) next.email = params.email ? String(params.email).toLowerCase() : null
    if ('phone_number' in params) next.phoneNumber = params.phone_number ? String(params.phone_number) : null
    if ('identifier' in params) next.identifier = params.identifier ? String(params.identifier) : null
    if ('blocked' in params) next.blocked = params.blocked === true || params.blocked === 'true'
    if (isObject(params.additional_attributes))
      next.additionalAttributes = { ...contact.additionalAttributes, ...params.additional_attributes }
    if (isObject(params.custom_attributes))
      next.customAttributes = { ...contact.customAttributes, ...params.custom_attributes }
    this.validateContact(next)
    Object.assign(contact, next, { updatedAt: new Date() })
    return contact
  }

  /** Contact has_many conversations and contact_inboxes dependent: :destroy_async (their messages go too). */
  deleteContact(contact: Contact): void {
    const conversationIds = new Set(this.conversations.filter((c) => c.contactId === contact.id).map((c) => c.id))
    remove(this.messages, (m) => conversationIds.has(m.conversationId))
    remove(this.conversations, (c) => conversationIds.has(c.id))
    remove(this.contactInboxes, (ci) => ci.contactId === contact.id)
    remove(this.contacts, (c) => c.id === contact.id)
  }

  /**
   * ContactInboxBuilder#perform: an API inbox's source_id defaults to a UUID; the same contact,
   * inbox and source_id answer the existing record (first_or_create!); ContactInbox validates
   * source_id unique per inbox, so another contact's source_id is refused.
   */
  buildContactInbox(contact: Contact, inbox: Inbox, sourceId: unknown): ContactInbox {
    const source = typeof sourceId === 'string' && sourceId ? sourceId : randomUUID()
    const existing = this.contactInboxes.find((ci) => ci.inboxId === inbox.id && ci.sourceId === source)
    if (existing?.contactId === contact.id) return existing
    if (existing) throw recordInvalid([['source_id', 'has already been taken']])
    const now = new Date()
    const contactInbox: ContactInbox = {
      id: this.next('contactInbox'),
      contactId: contact.id,
      inboxId: inbox.id,
      sourceId: source,
      hmacVerified: false,
      pubsubToken: randomUUID().replaceAll('-', '').slice(0, 24),
      createdAt: now,
      updatedAt: now,
    }
    this.contactInboxes.push(contactInbox)
    return contactInbox
  }

  /**
   * ConversationsController#create: with inbox_id and contact_id the contact_inbox is built
   * (ContactInboxBuilder); otherwise it is looked up by source_id alone. ConversationBuilder
   * keeps status (default open), additional_attributes and custom_attributes.
   */
  createConversation(params: Record<string, any>): Conversation {
    let contactInbox: ContactInbox | undefined
    if (params.inbox_id !== undefined && params.contact_id !== undefined)
      contactInbox = this.buildContactInbox(
        this.contact(Number(params.contact_id)),
        this.inbox(Number(params.inbox_id)),
        params.source_id,
      )
    else contactInbox = this.contactInboxes.find((ci) => ci.sourceId === params.source_id)
    if (!contactInbox) throw notFound()
    const now = new Date()
    const conversation: Conversation = {
      id: this.next('conversation'),
      uuid: randomUUID(),
      inboxId: contactInbox.inboxId,
      contactId: contactInbox.contactId,
      contactInboxId: contactInbox.id,
      status: ['open', 'resolved', 'pending'].includes(params.status) ? params.status : 'open',
      snoozedUntil: null,
      additionalAttributes: isObject(params.additional_attributes) ? params.additional_attributes : {},
      customAttributes: isObject(params.custom_attributes) ? params.custom_attributes : {},
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    }
    this.conversations.push(conversation)
    return conversation
  }

  /**
   * Messages::MessageBuilder#perform: message_type defaults to outgoing (incoming only in API
   * inboxes), the sender is the agent for outgoing and the contact for incoming; content_attributes
   * (a JSON string in a multipart body), source_id and echo_id are kept as given.
   */
  createMessage(
    conversation: Conversation,
    sender: User,
    params: Record<string, any>,
    files: { fileName: string; mimeType: string; bytes: Uint8Array }[] = [],
  ): Message {
    const messageType = params.message_type ?? 'outgoing'
    if (!['incoming', 'outgoing', 'activity', 'template'].includes(messageType))
      throw new ChatwootError(422, { error: `'${messageType}' is not a valid message_type` })
    // Message::NUMBER_OF_PERMITTED_ATTACHMENTS
    if (files.length > 15) throw recordInvalid([['attachments', 'exceeded maximum allowed']])
    const now = new Date()
    const id = this.next('message')
    const incoming = messageType === 'incoming'
    const message: Message = {
      id,
      conversationId: conversation.id,
      inboxId: conversation.inboxId,
      content: typeof params.content === 'string' ? params.content : null,
      messageType,
      contentType: typeof params.content_type === 'string' ? params.content_type : 'text',
      contentAttributes: contentAttributes(params.content_attributes),
      additionalAttributes: {},
      private: params.private === true || params.private === 'true',
      sourceId: typeof params.source_id === 'string' ? params.source_id : null,
      echoId: typeof params.echo_id === 'string' ? params.echo_id : null,
      status: 'sent',
      senderType: messageType === 'activity' ? null : incoming ? 'Contact' : 'User',
      senderId: messageType === 'activity' ? null : incoming ? conversation.contactId : sender.id,
      attachments: files.map((file) => ({
        id: this.next('attachment'),
        messageId: id,
        fileType: fileTypeOf(file.mimeType),
        fileName: file.fileName,
        mimeType: file.mimeType,
        bytes: file.bytes,
      })),
      createdAt: now,
      updatedAt: now,
    }
    this.messages.push(message)
    conversation.lastActivityAt = now
    conversation.updatedAt = now
    return message
  }

  /** MessagesController#destroy: content replaced, content_attributes { deleted: true }, attachments destroyed. */
  deleteMessage(message: Message): void {
    message.content = 'This message was deleted'
    message.contentType = 'text'
    message.contentAttributes = { deleted: true }
    message.attachments = []
    message.updatedAt = new Date()
  }
}

/** MessageBuilder#content_attributes: a Hash as is, a String parsed as JSON, anything else {}. */
function contentAttributes(value: unknown): Record<string, unknown> {
  if (isObject(value)) return value
  if (typeof value !== 'string') return {}
  try {
    const parsed = JSON.parse(value)
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

export const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function remove<T>(list: T[], predicate: (item: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (predicate(list[i]!)) list.splice(i, 1)
}

function throwError(error: Error): never {
  throw error
}
