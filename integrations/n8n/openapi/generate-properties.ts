import { N8NPropertiesBuilder } from '@devlikeapro/n8n-openapi-node'
import type { INodeProperties, INodePropertyOptions, INodePropertyRouting } from 'n8n-workflow'

/**
 * The action node's fields, generated from the gateway's OpenAPI document at build time
 * (`npm run build` in integrations/n8n writes properties.generated.json).
 *
 * @devlikeapro/n8n-openapi-node turns tags into resources, operations into actions and each
 * parameter or first-level body property into a field with its routing. What it leaves as the
 * document says, reshaped here for n8n:
 * - a deprecated alias (`to` for `phone`, `text` for `message`) is dropped;
 * - an optional field goes under the operation's "Additional Fields" collection: the routing
 *   sends every top-level field, so an empty optional one would be sent as "" (and refused);
 * - a property required in every branch but a deprecated one's (`phone` or `to`) is required;
 * - defaults taken from examples (a group id for `phone`) are cleared;
 * - session ids are picked from GET /v1/session/all;
 * - a media URL field (`imageUrl`, ...) can take a previous node's binary data instead: the node
 *   attaches a preSend to `binaryPropertyName` that turns it into a base64 `data:` URL;
 * - an operation answering a file (`*\/*`) returns it as binary data.
 */

type Schema = {
  type?: string
  properties?: Record<string, Schema & { deprecated?: boolean }>
  required?: string[]
  allOf?: Schema[]
  anyOf?: Schema[]
}
type Operation = {
  operationId: string
  tags?: string[]
  requestBody?: { $ref?: string; content?: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, unknown> }>
}
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>
  components: {
    requestBodies?: Record<string, { content: Record<string, { schema: Schema }> }>
    schemas?: Record<string, { enum?: string[] }>
  }
  tags?: { name: string }[]
}

export interface GeneratedNode {
  properties: INodeProperties[]
  /** Operation value → the body field a previous node's binary data fills (as a data: URL). */
  binaryMedia: Record<string, string>
  /** operationId → [resource value, operation value]: the coverage test reads it. */
  operations: Record<string, [string, string]>
  /** The event types a webhook may subscribe to (the document's WebhookEventType): the trigger's choices. */
  eventTypes: string[]
}

/** An action (an option of an `operation` field) as the builder writes it. */
type Action = INodePropertyOptions & { value: string; routing?: INodePropertyRouting }

const MEDIA_FIELDS = ['imageUrl', 'audioUrl', 'videoUrl', 'documentUrl', 'stickerUrl']
const SESSION_FIELDS = ['sessionId', 'session_id']
/** The path parameter that names a session: `id` in `/v1/session/{id}/…`, `/v1/session/update/{id}`. */
const SESSION_PATH_ID = 'id'
const namesSessionInPath = (path: string) => path.startsWith('/v1/session/') && path.includes(`{${SESSION_PATH_ID}}`)

const SESSION_PICKER: Partial<INodeProperties> = {
  displayName: 'Session Name or ID',
  type: 'options',
  description:
    'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
  typeOptions: {
    loadOptions: {
      routing: {
        request: { method: 'GET', url: '/v1/session/all' },
        output: {
          postReceive: [
            { type: 'rootProperty', properties: { property: 'sessions' } },
            {
              type: 'setKeyValue',
              properties: {
                name: '={{ $responseItem.sessionName }} ({{ $responseItem.status }})',
                value: '={{ $responseItem.sessionId }}',
              },
            },
            { type: 'sort', properties: { key: 'name' } },
          ],
        },
      },
    },
  },
}

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  )
}

function bodySchema(document: OpenApiDocument, operation: Operation): Schema | undefined {
  const body = operation.requestBody
  if (!body) return undefined
  const resolved = body.$ref ? document.components.requestBodies?.[body.$ref.split('/').pop()!] : body
  return resolved?.content?.['application/json']?.schema
}

/** Required fields, counting one required in each `anyOf` branch once the deprecated branches are gone. */
export function requiredFields(schema: Schema): Set<string> {
  const required = new Set(schema.required ?? [])
  for (const part of schema.allOf ?? []) {
    const live = (part.anyOf ?? []).filter(
      (branch) => !(branch.required ?? []).some((name) => branch.properties?.[name]?.deprecated),
    )
    if (live.length === 1) for (const name of live[0]!.required ?? []) required.add(name)
  }
  return required
}

const jsonValue = '={{ typeof $value === "string" ? JSON.parse($value) : $value }}'

export function generateProperties(document: OpenApiDocument): GeneratedNode {
  // The builder mutates what it walks: give it its own copy.
  const built = new N8NPropertiesBuilder(structuredClone(document) as never, {}).build() as INodeProperties[]
  const [resource, ...rest] = built
  const operationFields = rest.filter((field) => field.name === 'operation' && field.type === 'options')
  const fields = rest.filter((field) => !operationFields.includes(field) && field.type !== 'notice')

  const operations: GeneratedNode['operations'] = {}
  const binaryMedia: GeneratedNode['binaryMedia'] = {}
  const out: INodeProperties[] = [resource!]

  for (const { path, method, operation } of operationsOf(document)) {
    const resourceValue = operation.tags?.[0] ?? 'Default'
    const list = operationFields.find((f) => f.displayOptions?.show?.resource?.includes(resourceValue))
    // The builder's URL names path parameters by expression: `=/v1/group/{{$parameter["groupId"]}}`.
    const option = (list?.options as Action[] | undefined)?.find(
      (o) =>
        o.routing?.request?.method === method.toUpperCase() &&
        o.routing.request.url?.replace(/\{\{[^}]*\}\}/g, '') === `=${path.replace(/\{[^}]*\}/g, '')}`,
    )
    if (!option) throw new Error(`no generated action for ${operation.operationId}`)
    operations[operation.operationId] = [resourceValue, option.value]

    const answersFile = Object.entries(operation.responses).some(
      ([code, r]) => code.startsWith('2') && r.content && !('application/json' in r.content),
    )
    if (answersFile) {
      option.routing = {
        ...option.routing,
        request: { ...option.routing?.request, encoding: 'arraybuffer', json: false },
        output: { postReceive: [{ type: 'binaryData', properties: { destinationProperty: 'data' } }] },
      }
    }

    const schema = bodySchema(document, operation)
    const required = schema ? requiredFields(schema) : new Set<string>()
    const shown = (field: INodeProperties) =>
      field.displayOptions?.show?.resource?.[0] === resourceValue &&
      field.displayOptions?.show?.operation?.[0] === option.value
    const show = { resource: [resourceValue], operation: [option.value] }
    const top: INodeProperties[] = []
    const optional: INodeProperties[] = []

    for (const generated of fields.filter(shown)) {
      const field: INodeProperties = { ...generated }
      if (schema?.properties?.[field.name]?.deprecated) continue
      if (field.routing?.send?.value === '={{ JSON.parse($value) }}') {
        field.routing = { ...field.routing, send: { ...field.routing.send, value: jsonValue } }
      }
      const isBodyField = field.routing?.send?.type === 'body'
      const isRequired = field.required || (isBodyField && required.has(field.name))
      if (typeof field.default === 'string' && field.type === 'string') field.default = ''
      if (
        SESSION_FIELDS.includes(field.name) ||
        (namesSessionInPath(path) && field.name === SESSION_PATH_ID && !field.routing)
      ) {
        Object.assign(field, SESSION_PICKER, { default: '' })
      }
      if (isRequired) {
        field.required = true
        top.push(field)
      } else {
        const { displayOptions: _, required: __, ...inCollection } = field
        optional.push(inCollection as INodeProperties)
      }
    }

    const media = top.find((field) => MEDIA_FIELDS.includes(field.name))
    if (media) {
      binaryMedia[option.value] = media.name
      top.splice(
        top.indexOf(media),
        1,
        {
          displayName: 'Media Source',
          name: 'mediaSource',
          type: 'options',
          noDataExpression: true,
          default: 'url',
          options: [
            { name: 'URL (or Data: URL)', value: 'url' },
            { name: 'Binary Data of the Input Item', value: 'binary' },
          ],
          displayOptions: { show },
        },
        { ...media, displayOptions: { show: { ...show, mediaSource: ['url'] } } },
        {
          displayName: 'Input Binary Field',
          name: 'binaryPropertyName',
          type: 'string',
          required: true,
          default: 'data',
          hint: 'The name of the input binary field containing the file to be sent',
          displayOptions: { show: { ...show, mediaSource: ['binary'] } },
          // The node attaches the preSend that reads the binary data (functions are no JSON).
          routing: { send: { preSend: [] } },
        },
      )
    }

    // The media fields keep their own displayOptions: they depend on mediaSource.
    out.push(
      ...top.map((field) => (field.displayOptions?.show?.mediaSource ? field : { ...field, displayOptions: { show } })),
    )
    if (optional.length) {
      out.push({
        displayName: 'Additional Fields',
        name: 'additionalFields',
        type: 'collection',
        placeholder: 'Add Field',
        default: {},
        displayOptions: { show },
        options: optional.sort((a, b) => a.displayName.localeCompare(b.displayName)),
      })
    }
  }

  // The operation lists after the resource, as n8n shows them.
  out.splice(1, 0, ...operationFields)
  const eventTypes = document.components.schemas?.WebhookEventType?.enum
  if (!eventTypes?.length) throw new Error('the document has no WebhookEventType enum')
  return { properties: out, binaryMedia, operations, eventTypes }
}
