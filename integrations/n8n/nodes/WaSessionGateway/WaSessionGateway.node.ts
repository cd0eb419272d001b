import { type INodeProperties, type INodeType, type INodeTypeDescription, NodeConnectionTypes } from 'n8n-workflow'
import generated from './properties.generated.json'
import { mediaFromBinary } from './media-from-binary'

/** The generated fields, with the preSend that reads binary data attached where a media field takes it. */
function properties(): INodeProperties[] {
  const binaryMedia = generated.binaryMedia as Record<string, string>
  return (generated.properties as unknown as INodeProperties[]).map((property) => {
    const operation = property.displayOptions?.show?.operation?.[0]
    if (property.name !== 'binaryPropertyName' || typeof operation !== 'string' || !binaryMedia[operation])
      return property
    return { ...property, routing: { send: { preSend: [mediaFromBinary(binaryMedia[operation])] } } }
  })
}

export class WaSessionGateway implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'WA Session Gateway',
    name: 'waSessionGateway',
    icon: { light: 'file:waSessionGateway.svg', dark: 'file:waSessionGateway.dark.svg' },
    group: ['output'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description:
      'Send WhatsApp messages, manage sessions, contacts, chats, groups and webhooks of a WA Session Gateway',
    defaults: { name: 'WA Session Gateway' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'waSessionGatewayApi', required: true }],
    requestDefaults: {
      baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    },
    properties: properties(),
  }
}
