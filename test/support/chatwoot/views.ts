import type { Attachment, ChatwootAccount, Contact, ContactInbox, Conversation, Inbox, Message, User } from './model'

/**
 * What Chatwoot renders: the API's jbuilder views (app/views/api/v1/…) and the models'
 * push_event_data / webhook_data, each named where it is written. Times render as Rails does:
 * `.to_i` where the view says so, ISO 8601 with milliseconds where a Time is serialised as is.
 */

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : 0)
const iso = (date: Date) => date.toISOString()

export function views(account: ChatwootAccount, baseUrl: () => string) {
  /** Attachment#push_event_data (file_metadata): data_url is the blob's URL, served by the stand-in. */
  const attachment = (a: Attachment) => ({
    id: a.id,
    message_id: a.messageId,
    file_type: a.fileType,
    account_id: account.id,
    extension: a.fileName.includes('.') ? a.fileName.split('.').pop()! : null,
    data_url: `${baseUrl()}/rails/active_storage/blobs/redirect/${a.id}/${encodeURIComponent(a.fileName)}`,
    thumb_url: a.fileType === 'image' ? `${baseUrl()}/rails/active_storage/blobs/redirect/${a.id}/thumb` : '',
    file_size: a.bytes.byteLength,
    width: null,
    height: null,
  })

  /** User#push_event_data. */
  const userEvent = (u: User) => ({
    id: u.id,
    name: u.name,
    available_name: u.name,
    avatar_url: '',
    type: 'user',
    availability_status: 'online',
    thumbnail: '',
  })

  /** Contact#push_event_data. */
  const contactEvent = (c: Contact) => ({
    additional_attributes: c.additionalAttributes,
    custom_attributes: c.customAttributes,
    email: c.email,
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    phone_number: c.phoneNumber,
    thumbnail: '',
    blocked: c.blocked,
    type: 'contact',
  })

  const senderOf = (m: Message) =>
    m.senderType === 'User'
      ? account.users.find((u) => u.id === m.senderId)
      : m.senderType === 'Contact'
        ? account.contacts.find((c) => c.id === m.senderId)
        : undefined

  /** Message#push_event_data: what the messages API answers (api/v1/models/_message). */
  const message = (m: Message) => {
    const conversation = account.conversation(m.conversationId)
    const sender = senderOf(m)
    return {
      id: m.id,
      content: m.content,
      account_id: account.id,
      inbox_id: m.inboxId,
      conversation_id: m.conversationId,
      message_type: ['incoming', 'outgoing', 'activity', 'template'].indexOf(m.messageType),
      created_at: seconds(m.createdAt),
      updated_at: iso(m.updatedAt),
      private: m.private,
      status: m.status,
      source_id: m.sourceId,
      content_type: m.contentType,
      content_attributes: m.contentAttributes,
      sender_type: m.senderType,
      sender_id: m.senderId,
      external_source_ids: {},
      additional_attributes: m.additionalAttributes,
      processed_message_content: m.content,
      sentiment: {},
      ...(m.echoId ? { echo_id: m.echoId } : {}),
      conversation: {
        assignee_id: null,
        unread_count: unreadCount(conversation),
        last_activity_at: seconds(conversation.lastActivityAt),
        contact_inbox: { source_id: account.contactInboxOf(conversation).sourceId },
      },
      ...(m.attachments.length ? { attachments: m.attachments.map(attachment) } : {}),
      ...(sender
        ? { sender: m.senderType === 'User' ? userEvent(sender as User) : contactEvent(sender as Contact) }
        : {}),
    }
  }

  const unreadCount = (c: Conversation) =>
    account.messages.filter((m) => m.conversationId === c.id && m.messageType === 'incoming').length

  /** api/v1/models/_inbox for a Channel::Api inbox. */
  const inbox = (i: Inbox) => ({
    id: i.id,
    avatar_url: '',
    channel_id: i.channelId,
    name: i.name,
    channel_type: i.channelType,
    greeting_enabled: false,
    greeting_message: null,
    working_hours_enabled: false,
    enable_email_collect: true,
    csat_survey_enabled: false,
    enable_auto_assignment: true,
    auto_assignment_config: {},
    out_of_office_message: null,
    working_hours: [0, 1, 2, 3, 4, 5, 6].map((day) => ({
      day_of_week: day,
      closed_all_day: day === 0 || day === 6,
      open_hour: day === 0 || day === 6 ? null : 9,
      open_minutes: day === 0 || day === 6 ? null : 0,
      close_hour: day === 0 || day === 6 ? null : 17,
      close_minutes: day === 0 || day === 6 ? null : 0,
      open_all_day: false,
    })),
    timezone: 'UTC',
    callback_webhook_url: null,
    allow_messages_after_resolved: true,
    lock_to_single_conversation: false,
    sender_name_type: 'friendly',
    business_name: null,
    widget_color: null,
    website_url: null,
    hmac_mandatory: false,
    welcome_title: null,
    welcome_tagline: null,
    web_widget_script: null,
    website_token: null,
    selected_feature_flags: null,
    reply_time: null,
    messaging_service_sid: null,
    phone_number: null,
    hmac_token: i.hmacToken,
    webhook_url: i.webhookUrl,
    inbox_identifier: i.identifier,
    additional_attributes: {},
    provider: null,
  })

  /** api/v1/models/_contact_inbox. */
  const contactInbox = (ci: ContactInbox) => ({ source_id: ci.sourceId, inbox: inbox(account.inbox(ci.inboxId)) })

  /** api/v1/models/_contact, with_contact_inboxes on the /contacts endpoints. */
  const contact = (c: Contact, withContactInboxes = true) => ({
    additional_attributes: c.additionalAttributes,
    availability_status: 'offline',
    email: c.email,
    id: c.id,
    name: c.name,
    phone_number: c.phoneNumber,
    blocked: c.blocked,
    identifier: c.identifier,
    thumbnail: '',
    custom_attributes: c.customAttributes,
    ...(c.lastActivityAt ? { last_activity_at: seconds(c.lastActivityAt) } : {}),
    created_at: seconds(c.createdAt),
    ...(withContactInboxes
      ? { contact_inboxes: account.contactInboxes.filter((ci) => ci.contactId === c.id).map(contactInbox) }
      : {}),
  })

  const messagesOf = (c: Conversation) => account.messages.filter((m) => m.conversationId === c.id)

  /** api/v1/conversations/partials/_conversation. */
  const conversation = (c: Conversation) => {
    const all = messagesOf(c)
    const last = all.at(-1)
    const lastNonActivity = all.filter((m) => m.messageType !== 'activity').at(-1)
    return {
      meta: {
        sender: contact(account.contact(c.contactId), false),
        channel: 'Channel::Api',
        hmac_verified: account.contactInboxOf(c).hmacVerified,
      },
      id: c.id,
      messages: last ? [message(last)] : [],
      account_id: account.id,
      uuid: c.uuid,
      additional_attributes: c.additionalAttributes,
      agent_last_seen_at: 0,
      assignee_last_seen_at: 0,
      can_reply: true,
      contact_last_seen_at: 0,
      custom_attributes: c.customAttributes,
      inbox_id: c.inboxId,
      labels: [],
      muted: false,
      snoozed_until: c.snoozedUntil ? iso(c.snoozedUntil) : null,
      status: c.status,
      created_at: seconds(c.createdAt),
      timestamp: seconds(c.lastActivityAt),
      first_reply_created_at: 0,
      unread_count: unreadCount(c),
      last_non_activity_message: lastNonActivity ? message(lastNonActivity) : null,
      last_activity_at: seconds(c.lastActivityAt),
      priority: null,
      waiting_since: 0,
      sla_policy_id: null,
    }
  }

  /** Conversation#webhook_data: Conversations::EventDataPresenter#push_data with the account. */
  const conversationEvent = (c: Conversation) => {
    const contactInboxRecord = account.contactInboxOf(c)
    const lastChat = messagesOf(c)
      .filter((m) => m.messageType !== 'activity' && !m.private)
      .at(-1)
    return {
      additional_attributes: c.additionalAttributes,
      can_reply: true,
      channel: 'Channel::Api',
      contact_inbox: {
        id: contactInboxRecord.id,
        contact_id: contactInboxRecord.contactId,
        inbox_id: contactInboxRecord.inboxId,
        source_id: contactInboxRecord.sourceId,
        created_at: iso(contactInboxRecord.createdAt),
        updated_at: iso(contactInboxRecord.updatedAt),
        hmac_verified: contactInboxRecord.hmacVerified,
        pubsub_token: contactInboxRecord.pubsubToken,
      },
      id: c.id,
      inbox_id: c.inboxId,
      messages: lastChat ? [message(lastChat)] : [],
      labels: [],
      meta: { sender: contactEvent(account.contact(c.contactId)), assignee: null, team: null, hmac_verified: false },
      status: c.status,
      custom_attributes: c.customAttributes,
      snoozed_until: c.snoozedUntil ? iso(c.snoozedUntil) : null,
      unread_count: unreadCount(c),
      first_reply_created_at: null,
      priority: null,
      waiting_since: 0,
      agent_last_seen_at: null,
      contact_last_seen_at: null,
      last_activity_at: seconds(c.lastActivityAt),
      timestamp: seconds(c.lastActivityAt),
      created_at: seconds(c.createdAt),
      updated_at: c.updatedAt.getTime() / 1000,
      account: { id: account.id, name: account.name },
    }
  }

  /** Contact#webhook_data. */
  const contactWebhook = (c: Contact) => ({
    account: { id: account.id, name: account.name },
    additional_attributes: c.additionalAttributes,
    avatar: '',
    custom_attributes: c.customAttributes,
    email: c.email,
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    phone_number: c.phoneNumber,
    thumbnail: '',
  })

  /** Message#webhook_data: the body of message_created / message_updated, `event` added by WebhookListener. */
  const messageEvent = (event: 'message_created' | 'message_updated', m: Message) => {
    const sender = senderOf(m)
    return {
      account: { id: account.id, name: account.name },
      additional_attributes: m.additionalAttributes,
      content_attributes: m.contentAttributes,
      content_type: m.contentType,
      content: m.content,
      conversation: conversationEvent(account.conversation(m.conversationId)),
      created_at: iso(m.createdAt),
      id: m.id,
      inbox: { id: m.inboxId, name: account.inbox(m.inboxId).name },
      message_type: m.messageType,
      private: m.private,
      // User#webhook_data / Contact#webhook_data (a contact's carries no `type`)
      sender: !sender
        ? null
        : m.senderType === 'User'
          ? { id: sender.id, name: sender.name, email: (sender as User).email, type: 'user' }
          : contactWebhook(sender as Contact),
      source_id: m.sourceId,
      ...(m.attachments.length ? { attachments: m.attachments.map(attachment) } : {}),
      event,
    }
  }

  return {
    attachment,
    contact,
    contactEvent,
    contactInbox,
    conversation,
    conversationEvent,
    inbox,
    message,
    messageEvent,
    userEvent,
  }
}

export type Views = ReturnType<typeof views>
