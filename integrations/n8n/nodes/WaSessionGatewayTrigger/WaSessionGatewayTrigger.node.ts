import {
  type ILoadOptionsFunctions,
  type INodePropertyOptions,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  NodeConnectionTypes,
} from 'n8n-workflow'
import eventTypes from './events.generated.json'
import { receive } from './receive'
import { webhookLifecycle } from './subscription'

/** `message.received` → "Message Received". */
const titleOf = (type: string) => type.replace(/[._]/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase())

const eventOptions: INodePropertyOptions[] = eventTypes
  .map((type) => ({ name: titleOf(type), value: type, description: `The gateway's ${type} event` }))
  .sort((a, b) => a.name.localeCompare(b.name))

export class WaSessionGatewayTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'WA Session Gateway Trigger',
    name: 'waSessionGatewayTrigger',
    icon: { light: 'file:waSessionGateway.svg', dark: 'file:waSessionGateway.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{($parameter["events"] || []).join(", ") || "every event"}}',
    description: 'Starts the workflow on WhatsApp events of a WA Session Gateway session or workspace',
    defaults: { name: 'WA Session Gateway Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'waSessionGatewayApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Listen To',
        name: 'scope',
        type: 'options',
        noDataExpression: true,
        default: 'session',
        options: [
          { name: 'One Session', value: 'session', description: 'The events of the session chosen below' },
          {
            name: 'The Whole Workspace',
            value: 'workspace',
            description: 'The events of every session of the API key’s workspace, present and future',
          },
        ],
      },
      {
        displayName: 'Session Name or ID',
        name: 'sessionId',
        type: 'options',
        typeOptions: { loadOptionsMethod: 'getSessions' },
        required: true,
        default: '',
        description:
          'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
        displayOptions: { show: { scope: ['session'] } },
      },
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        default: ['message.received'],
        description: 'The event types that start the workflow; none chosen: every type',
        options: eventOptions,
      },
      {
        displayName: 'Options',
        name: 'options',
        type: 'collection',
        placeholder: 'Add Option',
        default: {},
        options: [
          {
            displayName: 'Download Received Files',
            name: 'downloadMedia',
            type: 'boolean',
            default: false,
            description:
              'Whether to download the file of a received photo, video, voice note, document or sticker into binary data, through the event’s signed download URL',
          },
          {
            displayName: 'Put Files in Field',
            name: 'binaryPropertyName',
            type: 'string',
            default: 'data',
            description: 'The binary field the downloaded file goes to',
          },
        ],
      },
    ],
  }

  methods = {
    loadOptions: {
      async getSessions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
        const { baseUrl } = await this.getCredentials('waSessionGatewayApi')
        const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'waSessionGatewayApi', {
          method: 'GET',
          url: `${String(baseUrl).replace(/\/+$/, '')}/v1/session/all`,
          json: true,
        })) as { sessions: { sessionId: string; sessionName: string; status: string }[] }
        return answer.sessions
          .map((session) => ({ name: `${session.sessionName} (${session.status})`, value: session.sessionId }))
          .sort((a, b) => a.name.localeCompare(b.name))
      },
    },
  }

  webhookMethods = { default: webhookLifecycle }

  async webhook(this: IWebhookFunctions) {
    return receive.call(this)
  }
}
