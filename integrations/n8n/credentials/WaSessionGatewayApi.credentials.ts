import type { Icon, IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow'

export class WaSessionGatewayApi implements ICredentialType {
  name = 'waSessionGatewayApi'

  displayName = 'WA Session Gateway API'

  icon: Icon = { light: 'file:waSessionGateway.svg', dark: 'file:waSessionGateway.dark.svg' }

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-wa-session-gateway'

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      placeholder: 'https://gateway.example.com',
      description: 'Where the gateway is served (with its mount point, if any), without /v1',
      required: true,
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description: 'A workspace API key (wa-gateway key create), sent as a Bearer token',
      required: true,
    },
  ]

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  }

  // GET /v1/workspace answers whom the key acts for: 200 with a valid key, 401 without.
  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/v1/workspace' },
  }
}
