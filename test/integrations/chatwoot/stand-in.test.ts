import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chatwootContract } from '../../support/chatwoot/overlay'
import { type ChatwootStandIn, startChatwootStandIn } from '../../support/chatwoot/stand-in'
import { loopbackOnlyNetwork } from '../../support/loopback-only-network'
import { type LoopbackServer, startLoopbackServer } from '../../support/loopback-server'
import { documentValidator, operationsOf } from '../../support/openapi-answers'
import { pollUntil } from '../../support/poll'

// The stand-in the gateway's Chatwoot client is tested against: every request checked against
// Chatwoot's published OpenAPI document (test/support/chatwoot/openapi.json), every answer and
// webhook shaped as Chatwoot's Rails code makes them.

const document = chatwootContract()
const answers = documentValidator(document)
const operations = operationsOf(document)

let chatwoot: ChatwootStandIn
let receiver: LoopbackServer
let received: { path: string; body: any }[]
let callbackStatus: number
let answered: Set<string>

beforeEach(async () => {
  chatwoot = await startChatwootStandIn()
  received = []
  callbackStatus = 200
  answered = new Set()
  receiver = await startLoopbackServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(text) })
      response.writeHead(callbackStatus).end()
    })
  })
})
afterEach(async () => {
  await chatwoot.close()
  await receiver.close()
})

const accountPath = (rest: string) => `/api/v1/accounts/${chatwoot.accountId}${rest}`

/** A request as the gateway's client would send it, its answer checked against the document. */
async function call(method: string, path: string, template: string, body?: unknown, token = chatwoot.token) {
  const headers: Record<string, string> = { api_access_token: token }
  let payload: FormData | string | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const response = await fetch(`${chatwoot.url}${path}`, { method, headers, body: payload })
  const text = await response.text()
  const operation = operations.find((o) => o.path === template && o.method === method.toLowerCase())!
  answered.add(operation.id)
  const problems = await answers.problems(operation, {
    status: response.status,
    headers: response.headers,
    text: text || undefined,
  })
  return { status: response.status, body: text ? JSON.parse(text) : undefined, problems }
}

const T = {
  inboxes: '/api/v1/accounts/{account_id}/inboxes',
  contacts: '/api/v1/accounts/{account_id}/contacts',
  contact: '/api/v1/accounts/{account_id}/contacts/{id}',
  search: '/api/v1/accounts/{account_id}/contacts/search',
  contactInboxes: '/api/v1/accounts/{account_id}/contacts/{id}/contact_inboxes',
  contactConversations: '/api/v1/accounts/{account_id}/contacts/{id}/conversations',
  conversations: '/api/v1/accounts/{account_id}/conversations',
  conversation: '/api/v1/accounts/{account_id}/conversations/{conversation_id}',
  toggle: '/api/v1/accounts/{account_id}/conversations/{conversation_id}/toggle_status',
  messages: '/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages',
  message: '/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages/{message_id}',
  profile: '/api/v1/profile',
}

/** An API inbox posting to the receiver, a contact in it and a conversation, through the API. */
async function seed() {
  const inbox = await call('POST', accountPath('/inboxes'), T.inboxes, {
    name: 'WhatsApp +15550001',
    channel: { type: 'api', webhook_url: receiver.url('/chatwoot') },
  })
  const contact = await call('POST', accountPath('/contacts'), T.contacts, {
    inbox_id: inbox.body.id,
    name: 'Alice',
    phone_number: '+15550002',
    identifier: '15550002@s.whatsapp.net',
  })
  const sourceId = contact.body.payload.contact_inbox.source_id
  const conversation = await call('POST', accountPath('/conversations'), T.conversations, { source_id: sourceId })
  await chatwoot.settled()
  return { inbox, contact, sourceId, conversation }
}

describe('Chatwoot stand-in: requests that keep the contract', () => {
  it('answers a whole mirrored conversation as Chatwoot does, every answer matching the document, no violation', async () => {
    const { inbox, contact, sourceId, conversation } = await seed()
    const contactId = contact.body.payload.contact.id
    const conversationId = conversation.body.id
    const steps = [
      inbox,
      contact,
      conversation,
      await call('GET', '/api/v1/profile', T.profile),
      await call('GET', accountPath('/inboxes'), T.inboxes),
      await call('GET', accountPath('/contacts/search?q=%2B1555'), T.search),
      await call('GET', accountPath(`/contacts/${contactId}`), T.contact),
      await call('PUT', accountPath(`/contacts/${contactId}`), T.contact, { name: 'Alice B.' }),
      await call('POST', accountPath(`/contacts/${contactId}/contact_inboxes`), T.contactInboxes, {
        inbox_id: inbox.body.id,
        source_id: sourceId,
      }),
      await call('GET', accountPath(`/contacts/${contactId}/conversations`), T.contactConversations),
      await call('GET', accountPath(`/conversations/${conversationId}`), T.conversation),
    ]
    const incoming = await call('POST', accountPath(`/conversations/${conversationId}/messages`), T.messages, {
      content: 'hello from WhatsApp',
      message_type: 'incoming',
      source_id: 'WAID:3EB0C431C26A1916E9C1',
      content_attributes: { in_reply_to_external_id: 'WAID:PREVIOUS' },
    })
    steps.push(
      incoming,
      await call('GET', accountPath(`/conversations/${conversationId}/messages`), T.messages),
      await call('POST', accountPath(`/conversations/${conversationId}/toggle_status`), T.toggle, {
        status: 'resolved',
      }),
      await call('DELETE', accountPath(`/conversations/${conversationId}/messages/${incoming.body.id}`), T.message),
      await call('DELETE', accountPath(`/contacts/${contactId}`), T.contact),
    )

    expect([...answered].sort()).toEqual(operations.map((o) => o.id).sort())
    expect(steps.map((s) => s.status)).toEqual(steps.map(() => 200))
    expect(steps.flatMap((s) => s.problems)).toEqual([])
    expect(chatwoot.violations).toEqual([])
    // What MessageBuilder keeps and the answer (Message#push_event_data) echoes.
    expect(incoming.body).toMatchObject({
      message_type: 0,
      source_id: 'WAID:3EB0C431C26A1916E9C1',
      content_attributes: { in_reply_to_external_id: 'WAID:PREVIOUS' },
      conversation: { contact_inbox: { source_id: sourceId } },
      sender: { type: 'contact', id: contactId },
    })
    expect(inbox.body).toMatchObject({ channel_type: 'Channel::Api', webhook_url: receiver.url('/chatwoot') })
    expect(contact.body.payload.contact.contact_inboxes).toEqual([expect.objectContaining({ source_id: sourceId })])
    expect(chatwoot.contacts).toEqual([])
    expect(chatwoot.conversations).toEqual([])
  })

  it('posts message_created for a message the API itself created (the echo the gateway must drop)', async () => {
    const { conversation, contact } = await seed()
    await call('POST', accountPath(`/conversations/${conversation.body.id}/messages`), T.messages, {
      content: 'from the gateway',
      message_type: 'incoming',
      source_id: 'WAID:ECHO',
    })
    const hooks = await pollUntil(
      () => received.filter((r) => r.body.event === 'message_created'),
      (list) => list.length === 1,
      { what: 'the message_created of the API-created message' },
    )
    expect(hooks[0]!.body).toMatchObject({
      message_type: 'incoming',
      source_id: 'WAID:ECHO',
      private: false,
      sender: { id: contact.body.payload.contact.id, name: 'Alice', phone_number: '+15550002' },
      conversation: { id: conversation.body.id, account: { id: chatwoot.accountId } },
    })
    expect(received.map((r) => r.body.event)).toContain('conversation_created')
  })
})

describe('Chatwoot stand-in: requests that break the contract', () => {
  it('records a field of the wrong type, a missing required field, an unknown path, an undeclared query parameter', async () => {
    const { inbox, conversation } = await seed()
    expect(chatwoot.violations).toEqual([])

    await call('POST', accountPath('/contacts'), T.contacts, { inbox_id: inbox.body.id, phone_number: 15550003 })
    await call('POST', accountPath(`/conversations/${conversation.body.id}/messages`), T.messages, {
      message_type: 'incoming',
    })
    const unknown = await fetch(`${chatwoot.url}${accountPath('/contact')}`, {
      headers: { api_access_token: chatwoot.token },
    })
    await call('GET', accountPath('/contacts/search?query=Alice'), T.search)

    expect(unknown.status).toBe(404)
    expect(chatwoot.violations.map((v) => [v.method, v.path, v.errors.length])).toEqual([
      ['POST', accountPath('/contacts'), 1],
      ['POST', accountPath(`/conversations/${conversation.body.id}/messages`), 1],
      ['GET', accountPath('/contact'), 1],
      ['GET', accountPath('/contacts/search'), 1],
    ])
    expect(chatwoot.violations[0]!.errors[0]).toMatch(/\/phone_number .*type/)
    expect(chatwoot.violations[1]!.errors[0]).toMatch(/required/)
    expect(chatwoot.violations[2]!.errors[0]).toMatch(/no path of the document/)
    expect(chatwoot.violations[3]!.errors).toEqual(['query parameter query is not declared'])
  })

  it('records a malformed JSON body (answered 400) and a path parameter of the wrong type (answered 404)', async () => {
    const malformed = await fetch(`${chatwoot.url}${accountPath('/contacts')}`, {
      method: 'POST',
      headers: { api_access_token: chatwoot.token, 'content-type': 'application/json' },
      body: '{"inbox_id": 1,',
    })
    const wrongId = await call('GET', accountPath('/conversations/abc'), T.conversation)

    expect(malformed.status).toBe(400)
    expect(wrongId).toMatchObject({ status: 404, problems: [] })
    expect(chatwoot.violations.map((v) => v.errors)).toEqual([
      [expect.stringMatching(/^the application\/json body is malformed/)],
      [expect.stringMatching(/^path parameter conversation_id does not match the schema/)],
    ])
  })

  it('refuses a body past its bound 413 without keeping it, and never contacts a non-loopback webhook_url', async () => {
    const small = await startChatwootStandIn({ maxBodyBytes: 1024 })
    try {
      const tooLarge = await fetch(`${small.url}/api/v1/accounts/${small.accountId}/contacts`, {
        method: 'POST',
        headers: { api_access_token: small.token, 'content-type': 'application/json' },
        body: JSON.stringify({ inbox_id: 1, name: 'x'.repeat(2048) }),
      })
      expect(tooLarge.status).toBe(413)
      expect(small.requests).toEqual([])
    } finally {
      await small.close()
    }

    // A name that never resolves (RFC 6761 .invalid), behind the test network guard: a post would
    // be stopped before any packet and show in `blocked`.
    const guard = loopbackOnlyNetwork()
    try {
      const inbox = await call('POST', accountPath('/inboxes'), T.inboxes, {
        name: 'elsewhere',
        channel: { type: 'api', webhook_url: 'https://hooks.invalid/chatwoot' },
      })
      const contact = await call('POST', accountPath('/contacts'), T.contacts, { inbox_id: inbox.body.id })
      const conversation = await call('POST', accountPath('/conversations'), T.conversations, {
        source_id: contact.body.payload.contact_inbox.source_id,
      })
      const { callbackStatus: status } = await chatwoot.agentReply(conversation.body.id, { content: 'hi' })
      await chatwoot.settled()
      expect(status).toBe(0)
      expect(chatwoot.deliveries.map((d) => [d.event, d.status])).toEqual([
        ['conversation_created', 0],
        ['message_created', 0],
      ])
      expect(guard.blocked).toEqual([])
    } finally {
      guard.restore()
    }
  })

  it('refuses a missing or wrong api_access_token as Chatwoot does, and records the missing header', async () => {
    const missing = await fetch(`${chatwoot.url}/api/v1/profile`)
    const wrong = await call('GET', '/api/v1/profile', T.profile, undefined, 'not-the-token')

    expect(missing.status).toBe(401)
    expect(await missing.json()).toEqual({ errors: ['You need to sign in or sign up before continuing.'] })
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid Access Token' }, problems: [] })
    expect(chatwoot.violations).toEqual([
      { method: 'GET', path: '/api/v1/profile', errors: ['security header api_access_token is missing'] },
    ])
  })
})

describe("Chatwoot stand-in: Chatwoot's own refusals", () => {
  it('answers 422 "Phone number has already been taken", a non-E.164 number and a taken identifier', async () => {
    const { inbox } = await seed()
    const again = await call('POST', accountPath('/contacts'), T.contacts, {
      inbox_id: inbox.body.id,
      name: 'Mallory',
      phone_number: '+15550002',
    })
    const local = await call('POST', accountPath('/contacts'), T.contacts, {
      inbox_id: inbox.body.id,
      phone_number: '0155 50004',
    })
    const prefixed = await call('POST', accountPath('/contacts'), T.contacts, {
      inbox_id: inbox.body.id,
      phone_number: 'tel:+15550005',
    })
    const identifier = await call('POST', accountPath('/contacts'), T.contacts, {
      inbox_id: inbox.body.id,
      identifier: '15550002@s.whatsapp.net',
    })

    expect(again).toMatchObject({
      status: 422,
      body: { message: 'Phone number has already been taken', attributes: ['phone_number'] },
      problems: [],
    })
    expect(local.body).toEqual({ message: 'Phone number should be in e164 format', attributes: ['phone_number'] })
    expect(prefixed.body).toEqual(local.body)
    expect(identifier.body).toEqual({ message: 'Identifier has already been taken', attributes: ['identifier'] })
    expect(chatwoot.contacts).toHaveLength(1)
    expect(chatwoot.violations).toEqual([])
  })

  it('refuses a source_id another contact holds in the inbox; a deleted contact is gone (404)', async () => {
    const { inbox, contact, sourceId } = await seed()
    const bob = await call('POST', accountPath('/contacts'), T.contacts, { inbox_id: inbox.body.id, name: 'Bob' })
    const taken = await call(
      'POST',
      accountPath(`/contacts/${bob.body.payload.contact.id}/contact_inboxes`),
      T.contactInboxes,
      {
        inbox_id: inbox.body.id,
        source_id: sourceId,
      },
    )
    chatwoot.deleteContact(contact.body.payload.contact.id)
    const gone = await call('GET', accountPath(`/contacts/${contact.body.payload.contact.id}`), T.contact)

    expect(taken).toMatchObject({ status: 422, body: { message: 'Source has already been taken' }, problems: [] })
    expect(gone).toMatchObject({ status: 404, body: { error: 'Resource could not be found' }, problems: [] })
    expect(chatwoot.conversations).toEqual([])
    expect(chatwoot.contactInboxes.map((ci) => ci.contactId)).toEqual([bob.body.payload.contact.id])
  })

  it('answers 503 to everything while down', async () => {
    chatwoot.down = true
    const down = await fetch(`${chatwoot.url}/api/v1/profile`, { headers: { api_access_token: chatwoot.token } })
    chatwoot.down = false
    const up = await call('GET', '/api/v1/profile', T.profile)

    expect(down.status).toBe(503)
    expect(up).toMatchObject({ status: 200, problems: [] })
  })
})

describe('Chatwoot stand-in: the agent side and its webhooks', () => {
  it("posts an agent's reply to the inbox's webhook_url as message_created, attachments served at data_url", async () => {
    const { sourceId, conversation, contact } = await seed()
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
    received.length = 0
    callbackStatus = 202

    const reply = await chatwoot.agentReply(conversation.body.id, {
      content: 'Hi Alice',
      agentName: 'Bea',
      attachments: [{ fileName: 'photo.png', mimeType: 'image/png', bytes: png }],
    })
    const note = await chatwoot.agentReply(conversation.body.id, { content: 'internal', private: true })

    expect(reply.callbackStatus).toBe(202)
    expect(note.callbackStatus).toBe(202)
    const [posted, notePosted] = received.map((r) => r.body)
    expect(posted).toMatchObject({
      event: 'message_created',
      id: reply.message.id,
      content: 'Hi Alice',
      message_type: 'outgoing',
      private: false,
      source_id: null,
      content_attributes: {},
      sender: { name: 'Bea', type: 'user' },
      inbox: { id: conversation.body.inbox_id },
      account: { id: chatwoot.accountId },
      conversation: {
        id: conversation.body.id,
        inbox_id: conversation.body.inbox_id,
        contact_inbox: { source_id: sourceId },
        meta: { sender: { id: contact.body.payload.contact.id, phone_number: '+15550002', type: 'contact' } },
      },
      attachments: [{ file_type: 'image', extension: 'png', file_size: png.byteLength }],
    })
    expect(notePosted).toMatchObject({ event: 'message_created', private: true, content: 'internal' })
    const file = await fetch(posted.attachments[0].data_url)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png)
    expect(new URL(posted.attachments[0].data_url).hostname).toBe('127.0.0.1')
  })

  it('posts message_updated with content_attributes.deleted when an agent deletes a message in the UI', async () => {
    const { conversation } = await seed()
    const { message } = await chatwoot.agentReply(conversation.body.id, { content: 'oops' })
    received.length = 0

    const { callbackStatus: status } = await chatwoot.deleteMessageInUi(conversation.body.id, message.id)

    expect(status).toBe(200)
    expect(received.map((r) => r.body)).toEqual([
      expect.objectContaining({
        event: 'message_updated',
        id: message.id,
        content: 'This message was deleted',
        content_attributes: { deleted: true },
      }),
    ])
  })
})

describe('Chatwoot stand-in: conversation status', () => {
  it('posts conversation_status_changed when resolved in the UI, and an incoming message reopens it', async () => {
    const { conversation } = await seed()
    received.length = 0

    chatwoot.resolve(conversation.body.id)
    await chatwoot.settled()
    const resolved = await call('GET', accountPath(`/conversations/${conversation.body.id}`), T.conversation)
    await call('POST', accountPath(`/conversations/${conversation.body.id}/messages`), T.messages, {
      content: 'are you there?',
      message_type: 'incoming',
    })
    await chatwoot.settled()
    const reopened = await call('GET', accountPath(`/conversations/${conversation.body.id}`), T.conversation)

    expect(resolved.body).toMatchObject({ status: 'resolved' })
    expect(reopened).toMatchObject({ status: 200, problems: [], body: { status: 'open' } })
    const events = received.map((r) => [r.body.event, r.body.status ?? r.body.message_type])
    expect(events[0]).toEqual(['conversation_status_changed', 'resolved'])
    expect(received[0]!.body.changed_attributes).toEqual([
      { status: { current_value: 'resolved', previous_value: 'open' } },
    ])
    // Two jobs in Chatwoot, two concurrent posts here: either may arrive first.
    expect(events.slice(1).sort()).toEqual([
      ['conversation_status_changed', 'open'],
      ['message_created', 'incoming'],
    ])
    // Conversation#create_activity: an activity message, never posted to the webhook_url.
    expect(chatwoot.messages.map((m) => [m.messageType, m.content])).toEqual([
      ['activity', 'Conversation was marked resolved by Stand-in Agent'],
      ['incoming', 'are you there?'],
    ])
  })
})

describe('Chatwoot stand-in: snoozing', () => {
  it('snoozes until a time and answers it as Chatwoot renders a Time, within the contract', async () => {
    const { conversation } = await seed()
    const until = Math.floor(Date.UTC(2030, 0, 2, 3, 4, 5) / 1000)

    const snoozed = await call('POST', accountPath(`/conversations/${conversation.body.id}/toggle_status`), T.toggle, {
      status: 'snoozed',
      snoozed_until: until,
    })
    const shown = await call('GET', accountPath(`/conversations/${conversation.body.id}`), T.conversation)

    expect(snoozed).toMatchObject({
      problems: [],
      body: { payload: { success: true, current_status: 'snoozed', snoozed_until: '2030-01-02T03:04:05.000Z' } },
    })
    expect(shown).toMatchObject({
      problems: [],
      body: { status: 'snoozed', snoozed_until: '2030-01-02T03:04:05.000Z' },
    })
    expect(chatwoot.violations).toEqual([])
  })
})

describe('Chatwoot stand-in: multipart attachments', () => {
  it('takes attachments[] in multipart/form-data and serves the same bytes back, within the contract', async () => {
    const { conversation } = await seed()
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251)
    const form = new FormData()
    form.append('content', 'a voice note')
    form.append('message_type', 'incoming')
    form.append('source_id', 'WAID:AUDIO')
    form.append('content_attributes', JSON.stringify({ in_reply_to_external_id: 'WAID:Q' }))
    form.append('attachments[]', new Blob([bytes], { type: 'audio/ogg' }), 'voice.ogg')
    form.append('attachments[]', new Blob([new Uint8Array([1])], { type: 'application/pdf' }), 'a.pdf')

    const created = await call('POST', accountPath(`/conversations/${conversation.body.id}/messages`), T.messages, form)

    expect(created).toMatchObject({
      status: 200,
      problems: [],
      body: {
        content: 'a voice note',
        source_id: 'WAID:AUDIO',
        content_attributes: { in_reply_to_external_id: 'WAID:Q' },
        attachments: [
          { file_type: 'audio', file_size: bytes.byteLength },
          { file_type: 'file', extension: 'pdf' },
        ],
      },
    })
    const served = await fetch(created.body.attachments[0].data_url)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
    expect(chatwoot.violations).toEqual([])
    expect(chatwoot.requests.at(-1)!.body).toMatchObject({
      'attachments[]': [
        { fileName: 'voice.ogg', mimeType: 'audio/ogg', size: bytes.byteLength },
        { fileName: 'a.pdf' },
      ],
    })
  })

  it('records a multipart body on an operation that only takes JSON', async () => {
    const form = new FormData()
    form.append('name', 'Alice')
    await call('POST', accountPath('/contacts'), T.contacts, form)
    expect(chatwoot.violations.map((v) => v.errors)).toEqual([
      ['body media type multipart/form-data is not declared (application/json)'],
    ])
  })
})
