import { ChatwootError, type ChatwootAccount, type Conversation, type Message, type User, isObject } from './model'
import type { UploadedFile } from './request-body'
import type { Views } from './views'

/**
 * The Application API operations of the vendored document, each as Chatwoot's controller answers
 * it (app/controllers/api/v1/accounts/…), keyed by method and the document's path template.
 */

export interface RouteContext {
  account: ChatwootAccount
  view: Views
  agent: User
  /** The agent's api_access_token (the profile answers it). */
  token: string
  /** Rails params: query, body and path parameters merged. */
  params: Record<string, any>
  files: UploadedFile[]
  /** Chatwoot's dispatcher: events its WebhookListener turns into posts to the inbox's webhook_url. */
  messageCreated(message: Message): void
  messageUpdated(message: Message): void
  conversationCreated(conversation: Conversation): void
  statusChanged(conversation: Conversation, by: User | null, previous: Conversation['status']): void
}

export interface Answer {
  status: number
  body?: unknown
}

const ok = (body?: unknown): Answer => ({ status: 200, body })
const CONTACTS_PER_PAGE = 15

const accounts = '/api/v1/accounts/{account_id}'

export const routes: Record<string, (c: RouteContext) => Answer> = {
  // InboxesController#index / #create
  [`get ${accounts}/inboxes`]: ({ account, view }) => ok({ payload: account.inboxes.map(view.inbox) }),
  [`post ${accounts}/inboxes`]: ({ account, view, params }) => ok(view.inbox(account.createApiInbox(params))),

  // ContactsController#search: name, email, phone_number (ILIKE), identifier (LIKE), or the id.
  [`get ${accounts}/contacts/search`]: ({ account, view, params }) => {
    const q = typeof params.q === 'string' ? params.q.trim() : ''
    if (!q) throw new ChatwootError(422, { error: 'Specify search string with parameter q' })
    const needle = q.toLowerCase()
    const found = account.contacts.filter(
      (c) =>
        [c.name, c.email, c.phoneNumber].some((field) => field?.toLowerCase().includes(needle)) ||
        c.identifier?.includes(q) ||
        (/^\d+$/.test(q) && c.id === Number(q)),
    )
    const page = params.page ?? 1
    const offset = (Number(page) - 1) * CONTACTS_PER_PAGE
    const rows = found.slice(offset, offset + CONTACTS_PER_PAGE)
    return ok({
      meta: { count: rows.length, current_page: page, has_more: found.length > offset + CONTACTS_PER_PAGE },
      payload: rows.map((c) => view.contact(c)),
    })
  },
  // ContactsController#create (contacts/create.json.jbuilder)
  [`post ${accounts}/contacts`]: ({ account, view, params }) => {
    const { contact, contactInbox } = account.createContact(params)
    return ok({
      payload: {
        contact: view.contact(contact),
        contact_inbox: {
          inbox: contactInbox ? view.inbox(account.inbox(contactInbox.inboxId)) : null,
          source_id: contactInbox?.sourceId ?? null,
        },
      },
    })
  },
  [`get ${accounts}/contacts/{id}`]: ({ account, view, params }) =>
    ok({ payload: view.contact(account.contact(Number(params.id))) }),
  [`put ${accounts}/contacts/{id}`]: ({ account, view, params }) =>
    ok({ payload: view.contact(account.updateContact(account.contact(Number(params.id)), params)) }),
  [`delete ${accounts}/contacts/{id}`]: ({ account, params }) => {
    account.deleteContact(account.contact(Number(params.id)))
    return ok()
  },
  // Contacts::ContactInboxesController#create
  [`post ${accounts}/contacts/{id}/contact_inboxes`]: ({ account, view, params }) => {
    const contact = account.contact(Number(params.id))
    const inbox = account.inbox(Number(params.inbox_id))
    return ok(view.contactInbox(account.buildContactInbox(contact, inbox, params.source_id)))
  },
  // Contacts::ConversationsController#index: the contact's latest 20 by last activity.
  [`get ${accounts}/contacts/{id}/conversations`]: ({ account, view, params }) => {
    const contact = account.contact(Number(params.id))
    const conversations = account.conversations
      .filter((c) => c.contactId === contact.id)
      .sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime() || b.id - a.id)
      .slice(0, 20)
    return ok({ payload: conversations.map(view.conversation) })
  },

  // ConversationsController#create, with its optional first message (MessageBuilder).
  [`post ${accounts}/conversations`]: (context) => {
    const { account, view, params, agent } = context
    const conversation = account.createConversation(params)
    context.conversationCreated(conversation)
    if (isObject(params.message)) context.messageCreated(account.createMessage(conversation, agent, params.message))
    return ok(view.conversation(conversation))
  },
  [`get ${accounts}/conversations/{conversation_id}`]: ({ account, view, params }) =>
    ok(view.conversation(account.conversation(Number(params.conversation_id)))),
  // ConversationsController#toggle_status: the given status, or Conversation#toggle_status;
  // answered by conversations/toggle_status.json.jbuilder (snoozed_until a Time, so ISO 8601).
  [`post ${accounts}/conversations/{conversation_id}/toggle_status`]: (context) => {
    const { account, params, agent } = context
    const conversation = account.conversation(Number(params.conversation_id))
    const before = conversation.status
    if (typeof params.status === 'string') {
      if (!['open', 'resolved', 'pending', 'snoozed'].includes(params.status))
        throw new ChatwootError(422, { error: `'${params.status}' is not a valid status` })
      conversation.status = params.status as Conversation['status']
      conversation.snoozedUntil =
        params.status === 'snoozed' && typeof params.snoozed_until === 'number'
          ? new Date(params.snoozed_until * 1000)
          : null
    } else conversation.status = conversation.status === 'open' ? 'resolved' : 'open'
    if (conversation.status !== before) context.statusChanged(conversation, agent, before)
    return ok({
      meta: {},
      payload: {
        success: true,
        conversation_id: conversation.id,
        current_status: conversation.status,
        snoozed_until: conversation.snoozedUntil?.toISOString() ?? null,
      },
    })
  },

  // MessagesController#index (messages/index.json.jbuilder) through MessageFinder: the last 20,
  // or 100 after / 20 before an id.
  [`get ${accounts}/conversations/{conversation_id}/messages`]: ({ account, view, params }) => {
    const conversation = account.conversation(Number(params.conversation_id))
    let messages = account.messages.filter((m) => m.conversationId === conversation.id)
    if (params.after !== undefined) messages = messages.filter((m) => m.id > Number(params.after)).slice(0, 100)
    else if (params.before !== undefined) messages = messages.filter((m) => m.id < Number(params.before)).slice(-20)
    else messages = messages.slice(-20)
    return ok({
      meta: {
        labels: [],
        additional_attributes: conversation.additionalAttributes,
        contact: view.contactEvent(account.contact(conversation.contactId)),
        // `assignee` only when the conversation has one (none in the stand-in).
        agent_last_seen_at: null,
        assignee_last_seen_at: null,
      },
      payload: messages.map(view.message),
    })
  },
  // MessagesController#create; an incoming message reopens a resolved or snoozed conversation
  // (Message#reopen_conversation).
  [`post ${accounts}/conversations/{conversation_id}/messages`]: (context) => {
    const { account, view, params, agent, files } = context
    const conversation = account.conversation(Number(params.conversation_id))
    const uploads = Array.isArray(params.attachments) ? files.filter((f) => f.field === 'attachments[]') : []
    const message = account.createMessage(conversation, agent, params, uploads)
    if (message.messageType === 'incoming' && ['resolved', 'snoozed'].includes(conversation.status)) {
      const previous = conversation.status
      conversation.status = 'open'
      conversation.snoozedUntil = null
      context.statusChanged(conversation, null, previous)
    }
    context.messageCreated(message)
    return ok(view.message(message))
  },
  // MessagesController#destroy: the message stays, marked deleted; the document declares no body.
  [`delete ${accounts}/conversations/{conversation_id}/messages/{message_id}`]: (context) => {
    const { account, params } = context
    const conversation = account.conversation(Number(params.conversation_id))
    const message = account.messages.find(
      (m) => m.conversationId === conversation.id && m.id === Number(params.message_id),
    )
    if (!message) throw new ChatwootError(404, { error: 'Resource could not be found' })
    account.deleteMessage(message)
    context.messageUpdated(message)
    return ok()
  },

  // ProfilesController#show (api/v1/profiles/show.json.jbuilder)
  'get /api/v1/profile': ({ account, agent, token }) =>
    ok({
      id: agent.id,
      access_token: token,
      account_id: account.id,
      available_name: agent.name,
      avatar_url: '',
      confirmed: true,
      display_name: null,
      message_signature: null,
      email: agent.email,
      hmac_identifier: '',
      inviter_id: null,
      name: agent.name,
      provider: 'email',
      pubsub_token: 'stand-in-pubsub-token',
      role: 'administrator',
      ui_settings: {},
      uid: agent.email,
      type: null,
      accounts: [
        {
          id: account.id,
          name: account.name,
          status: 'active',
          active_at: null,
          role: 'administrator',
          permissions: ['administrator'],
          availability: 'online',
          availability_status: 'online',
          auto_offline: true,
          custom_role_id: null,
          custom_role: null,
        },
      ],
    }),
}
