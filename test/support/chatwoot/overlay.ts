import { readFileSync } from 'node:fs'

const published = JSON.parse(readFileSync(new URL('./openapi.json', import.meta.url), 'utf8'))

/**
 * Chatwoot's published document (openapi.json, vendored unchanged) with the few places where it
 * disagrees with what Chatwoot's Rails code really accepts and answers corrected. Each correction
 * names the Chatwoot file it follows; nothing else differs. The stand-in checks requests and its
 * own answers against the corrected document, so a correction here is a claim about Chatwoot that
 * a reader can verify in its source.
 */

const messages = '/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages'
const contacts = '/api/v1/accounts/{account_id}/contacts'
const contact = '/api/v1/accounts/{account_id}/contacts/{id}'

export function chatwootContract(): any {
  const document = structuredClone(published)
  const schemas = document.components.schemas
  const json = (schema: unknown) => ({ 'application/json': { schema } })

  // POST messages: the document describes a JSON body only, but MessagesController#create hands
  // the whole params to Messages::MessageBuilder, which attaches `attachments[]` files of a
  // multipart/form-data body (process_attachments) and parses `content_attributes` sent there as
  // a JSON string (content_attributes). It also keeps `source_id` and `echo_id` (message_params),
  // which the JSON schema does not list but, having no additionalProperties, does allow.
  document.paths[messages].post.requestBody.content['multipart/form-data'] = {
    schema: {
      type: 'object',
      properties: {
        content: { type: 'string' },
        message_type: { type: 'string', enum: ['outgoing', 'incoming'] },
        private: { type: 'string', enum: ['true', 'false'] },
        content_type: schemas.conversation_message_create_payload.properties.content_type,
        content_attributes: { type: 'string', description: 'JSON text of an object' },
        source_id: { type: 'string' },
        echo_id: { type: 'string' },
        'attachments[]': { type: 'array', items: { type: 'string', format: 'binary' } },
      },
    },
  }

  // A message with attachments and no text has `content: null` (Message#content is a nullable
  // text column); the document's own public_message says so, its `message` schema does not.
  schemas.message.properties.content.type = ['string', 'null']

  // A conversation can be snoozed (Conversation status enum: open, resolved, pending, snoozed);
  // toggle_status's own answer lists it, the `conversation` schema does not.
  schemas.conversation.properties.status.enum.push('snoozed')

  // POST contacts answers app/views/api/v1/accounts/contacts/create.json.jbuilder:
  // { payload: { contact: <contact>, contact_inbox: { inbox, source_id } } }; the document's
  // extended_contact (a `payload` array) matches no answer Chatwoot gives.
  document.paths[contacts].post.responses['200'].content = json({
    type: 'object',
    required: ['payload'],
    properties: {
      payload: {
        type: 'object',
        required: ['contact', 'contact_inbox'],
        properties: {
          contact: { $ref: '#/components/schemas/contact_list_item' },
          contact_inbox: {
            type: 'object',
            properties: {
              inbox: { oneOf: [{ $ref: '#/components/schemas/inbox' }, { type: 'null' }] },
              source_id: { type: ['string', 'null'] },
            },
          },
        },
      },
    },
  })
  // Validation failures answer 422 { message, attributes } (RequestExceptionHandler
  // #render_record_invalid), e.g. "Phone number has already been taken"; 404 for an inbox_id of
  // another account. The document declares only 200 and 400.
  document.paths[contacts].post.responses['422'] = {
    description: 'Validation failed',
    content: json({ $ref: '#/components/schemas/record_invalid' }),
  }
  schemas.record_invalid = {
    type: 'object',
    required: ['message', 'attributes'],
    properties: { message: { type: 'string' }, attributes: { type: 'array', items: { type: 'string' } } },
  }

  // PUT contacts answers 200 with app/views/api/v1/accounts/contacts/update.json.jbuilder
  // ({ payload: <contact> }); the document declares a 204 with a body, which HTTP forbids.
  document.paths[contact].put.responses['200'] = {
    description: 'Success',
    content: json({ $ref: '#/components/schemas/contact_show_response' }),
  }
  document.paths[contact].put.responses['422'] = document.paths[contacts].post.responses['422']

  // An API channel's inbox (app/views/api/v1/models/_inbox.json.jbuilder) renders the web widget's
  // fields as null: `resource.channel.try(:website_url)` and the like on a Channel::Api.
  for (const key of ['website_url', 'widget_color', 'website_token', 'web_widget_script', 'reply_time'])
    schemas.inbox.properties[key].type = ['string', 'null']
  schemas.inbox.properties.webhook_url = { type: ['string', 'null'] }
  // …and `json.provider resource.channel.try(:provider)` is null there, in the inbox a
  // contact_inbox renders (api/v1/models/_contact_inbox) as well.
  schemas.inbox_contact.properties.provider.type = ['string', 'null']

  // The conversation partial renders `json.snoozed_until conversation.snoozed_until`, a Time:
  // ISO 8601 text, not the number the document says.
  schemas.conversation.properties.snoozed_until.type = ['string', 'number', 'null']

  return document
}
