import {
  type IDataObject,
  type IHookFunctions,
  type IHttpRequestMethods,
  type JsonObject,
  NodeApiError,
  NodeOperationError,
} from 'n8n-workflow'

/** What a trigger keeps about the webhook it added, in the node's static data (n8n stores it with the workflow). */
export interface Subscription {
  webhookId: string
  /** The webhook's own route: `/v1/session/{id}/webhooks/{webhookId}` or `/v1/webhooks/{webhookId}`. */
  resource: string
  secret: string
  url: string
  events: string[]
}

const CREDENTIAL = 'waSessionGatewayApi'
/** The gateway's limit on a webhook's description. */
const MAX_DESCRIPTION = 500

export const subscriptionOf = (data: IDataObject): Subscription | undefined =>
  typeof data.webhookId === 'string' && typeof data.secret === 'string' && typeof data.resource === 'string'
    ? (data as unknown as Subscription)
    : undefined

function forget(data: IDataObject): void {
  for (const key of ['webhookId', 'resource', 'secret', 'url', 'events', 'seenIds']) delete data[key]
}

/** Where this node's parameters say its webhooks live: a session's, or the workspace's. */
function webhooksPath(context: IHookFunctions): string {
  if (context.getNodeParameter('scope') === 'workspace') return '/v1/webhooks'
  const sessionId = context.getNodeParameter('sessionId') as string
  if (!sessionId) throw new NodeOperationError(context.getNode(), 'Choose a session, or the whole workspace')
  return `/v1/session/${encodeURIComponent(sessionId)}/webhooks`
}

const wantedEvents = (context: IHookFunctions) => [...(context.getNodeParameter('events') as string[])].sort()

/** A request to the gateway with the node's credential; answers undefined for a 404 when `gone` says that is an answer. */
async function gateway(
  context: IHookFunctions,
  method: IHttpRequestMethods,
  path: string,
  options: { body?: IDataObject; gone?: 'is an answer' } = {},
): Promise<IDataObject | undefined> {
  const { baseUrl } = await context.getCredentials(CREDENTIAL)
  try {
    return (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL, {
      method,
      url: `${String(baseUrl).replace(/\/+$/, '')}${path}`,
      ...(options.body ? { body: options.body } : {}),
      json: true,
    })) as IDataObject
  } catch (cause) {
    const error = new NodeApiError(context.getNode(), cause as JsonObject)
    if (options.gone && error.httpCode === '404') return undefined
    throw error
  }
}

/**
 * n8n's webhook lifecycle for the trigger: on activation it asks `checkExists` and, if that says
 * no, calls `create`; on deactivation it calls `delete`. The webhook is one of the gateway's
 * added webhooks (POST /v1/session/{id}/webhooks or /v1/webhooks), never the session's own
 * webhookUrl, so the application's webhook keeps receiving everything.
 */
export const webhookLifecycle = {
  /** Ours still there, at this URL, for these events, where the parameters say? Otherwise remove it and answer no. */
  async checkExists(this: IHookFunctions): Promise<boolean> {
    const data = this.getWorkflowStaticData('node')
    const known = subscriptionOf(data)
    if (!known) return false
    const listPath = known.resource.slice(0, known.resource.lastIndexOf('/'))
    const answer = await gateway(this, 'GET', listPath, { gone: 'is an answer' })
    if (!answer) {
      this.logger.info('WA Session Gateway Trigger: its session is gone; a new webhook will be added', { listPath })
      forget(data)
      return false
    }
    const found = ((answer.webhooks ?? []) as IDataObject[]).find((webhook) => webhook.webhookId === known.webhookId)
    if (
      found &&
      listPath === webhooksPath(this) &&
      found.url === this.getNodeWebhookUrl('default') &&
      JSON.stringify(known.events) === JSON.stringify(wantedEvents(this))
    )
      return true
    if (found) await gateway(this, 'DELETE', known.resource, { gone: 'is an answer' })
    forget(data)
    return false
  },

  async create(this: IHookFunctions): Promise<boolean> {
    const url = this.getNodeWebhookUrl('default')
    if (!url) throw new NodeOperationError(this.getNode(), 'n8n gave this trigger no webhook URL')
    const path = webhooksPath(this)
    const events = wantedEvents(this)
    const description = `n8n: ${this.getWorkflow().name ?? 'workflow'} → ${this.getNode().name}`.slice(
      0,
      MAX_DESCRIPTION,
    )
    const body = { url, events: events.length ? events : null, description }
    const created = (await gateway(this, 'POST', path, { body }))!
    const subscription: Subscription = {
      webhookId: String(created.webhookId),
      resource: `${path}/${encodeURIComponent(String(created.webhookId))}`,
      secret: String(created.secret),
      url,
      events,
    }
    Object.assign(this.getWorkflowStaticData('node'), subscription, { seenIds: [] })
    return true
  },

  async delete(this: IHookFunctions): Promise<boolean> {
    const data = this.getWorkflowStaticData('node')
    const known = subscriptionOf(data)
    if (known && !(await gateway(this, 'DELETE', known.resource, { gone: 'is an answer' })))
      this.logger.info('WA Session Gateway Trigger: its webhook was already removed', { webhookId: known.webhookId })
    forget(data)
    return true
  },
}
