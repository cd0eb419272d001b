import type { IBinaryKeyData, IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow'
import { alreadySeen, remember } from './replay-guard'
import { verifySignature } from './signature'
import { subscriptionOf } from './subscription'

interface Options {
  downloadMedia?: boolean
  binaryPropertyName?: string
}

/** Answers the request itself and starts nothing. */
function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
  context.getResponseObject().status(status).json(body)
  return { noWebhookResponse: true }
}

/**
 * A received file into n8n binary data through the event's signed downloadUrl (no API key: the
 * URL is its own credential). A download that fails (the URL expired, the gateway unreachable)
 * leaves the item without the file but with `downloadError`: the workflow still runs, and a
 * retry of the delivery would carry the same URL.
 */
async function withFile(context: IWebhookFunctions, event: IDataObject, property: string) {
  const data = (event.data ?? {}) as IDataObject
  const url = data.downloadUrl
  if (typeof url !== 'string') return { json: event }
  const media = ((data.content as IDataObject | undefined)?.media ?? {}) as IDataObject
  try {
    const body = (await context.helpers.httpRequest({ method: 'GET', url, encoding: 'arraybuffer' })) as ArrayBuffer
    const file = await context.helpers.prepareBinaryData(
      Buffer.from(body),
      typeof media.fileName === 'string' ? media.fileName : undefined,
      typeof media.mimetype === 'string' ? media.mimetype : undefined,
    )
    const binary: IBinaryKeyData = { [property]: file }
    return { json: event, binary }
  } catch (error) {
    context.logger.warn('WA Session Gateway Trigger: could not download a received file', {
      eventId: event.eventId,
      error: (error as Error).message,
    })
    return { json: { ...event, downloadError: (error as Error).message } }
  }
}

/**
 * One delivery from the gateway: refused (401) unless its Standard Webhooks signature is this
 * webhook's; answered without a run when its webhook-id already started one (the gateway
 * delivers at least once); otherwise the event starts the workflow, with its file if asked.
 */
export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
  const data = this.getWorkflowStaticData('node')
  const subscription = subscriptionOf(data)
  if (!subscription) return answer(this, 401, { message: 'This trigger has no webhook of the gateway' })
  const request = this.getRequestObject()
  const raw = Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.from(JSON.stringify(request.body ?? {}))
  const verdict = verifySignature(subscription.secret, this.getHeaderData(), raw, Math.floor(Date.now() / 1000))
  if (!verdict.ok) return answer(this, 401, { message: `Refused: ${verdict.reason}` })
  if (alreadySeen(data, verdict.id)) return answer(this, 200, { received: true, duplicate: true })

  const event = JSON.parse(raw.toString('utf8')) as IDataObject
  const options = this.getNodeParameter('options', {}) as Options
  const item = options.downloadMedia
    ? await withFile(this, event, options.binaryPropertyName || 'data')
    : { json: event }
  remember(data, verdict.id)
  return { workflowData: [[item]] }
}
