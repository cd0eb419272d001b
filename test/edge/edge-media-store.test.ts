/**
 * Received files kept in a bucket on the edge: `MEDIA_STORE=s3` (R2's S3 API in production) in
 * local `wrangler dev` (workerd), against s3rver on loopback, which checks every request's
 * signature as S3 does. The session's object signs with aws4fetch and streams each file to the
 * bucket with its length. One Worker, with MEDIA_DOWNLOAD=eager: a file is stored before its
 * message.received goes out; one whose eager fetch fails is stored by the first request instead
 * (the lazy path, in a request's context).
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mediaKey } from '../../src/media/store/key'
import { startS3Server, type S3Server } from '../support/s3-server'
import { tempDir } from '../support/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { edgeJwt, freePort, startWranglerDev, type WranglerDev } from './wrangler-dev'

const JWT_SECRET = 'edge-media-test-secret-0123456789abcd'
const CONTACT = '15551230101'
const PHONE = '15550170101'
const PREFIX = 'wa/'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

let sim: WhatsAppSimulator
let control: ControlApi
let receiver: WebhookReceiver
let s3: S3Server
let dev: WranglerDev
let token: string
let sessionId: string
let secret: string
const state = tempDir('edge-media-test-')
/** For each message.received: whether its file was in the bucket when the webhook arrived (first attempt). */
const storedOnArrival = new Map<string, boolean>()
const objectOf = (messageId: string) => `${PREFIX}${mediaKey(sessionId, messageId)}`
/** How a file went up: its streamed PUT to a temporary object, as s3rver received it (R2 and S3 refuse a chunked one). */
const uploadOf = (messageId: string) => {
  const puts = s3.requests.filter(
    (r) => r.method === 'PUT' && r.path.startsWith(`/${s3.bucket}/${PREFIX}tmp/${mediaKey(sessionId, messageId)}.`),
  )
  expect(puts).toHaveLength(1)
  return puts[0]!.headers
}

const download = async (url: string, authorized = true) => {
  const response = await fetch(url, { headers: authorized ? { authorization: `Bearer ${token}` } : {} })
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { status: response.status, sha256: sha256(bytes), text: () => Buffer.from(bytes).toString() }
}
const byApi = (messageId: string) => download(`${dev.url}/v1/message/${messageId}/media?sessionId=${sessionId}`)
const eventOf = (type: string, matches: (data: any) => boolean) =>
  receiver
    .waitFor('media', secret, (list) => list.some((e) => e.type === type && matches(e.data)), { timeoutMs: 60_000 })
    .then((list) => list.find((e) => e.type === type && matches(e.data))!)
const received = (messageId: string) => eventOf('message.received', (data) => data.messageId === messageId)

beforeAll(async () => {
  sim = await WhatsAppSimulator.start({ contacts: [CONTACT], autoReceipts: true })
  control = await ControlApi.start(sim)
  s3 = await startS3Server()
  receiver = await startWebhookReceiver()
  receiver.respond = (request) => {
    const event = JSON.parse(request.raw)
    if (event.type === 'message.received' && !storedOnArrival.has(event.data.messageId))
      storedOnArrival.set(event.data.messageId, s3.keys().includes(objectOf(event.data.messageId)))
    return 200
  }
  const port = await freePort()
  dev = await startWranglerDev({
    port,
    persistDir: state.path,
    env: {
      WA_SIMULATOR: control.url,
      JWT_SECRET,
      WEBHOOK_ALLOW_HTTP: 'true',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MEDIA_STORE: 's3',
      MEDIA_S3_ENDPOINT: s3.endpoint,
      MEDIA_S3_BUCKET: s3.bucket,
      MEDIA_S3_REGION: 'auto', // as for R2
      MEDIA_S3_ACCESS_KEY_ID: s3.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      MEDIA_S3_PREFIX: PREFIX,
      MEDIA_DOWNLOAD: 'eager',
      MEDIA_RETRY_TIMEOUT_MS: '1000',
    },
  })
  token = await edgeJwt(JWT_SECRET, 'edge-media')
  const connect = await fetch(`${dev.url}/v1/session/connect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionName: 'edge media', webhookUrl: receiver.url('media') }),
  })
  const body = (await connect.json()) as any
  // workerd's log of a failure arrives after the response: give it a moment for the message below
  if (connect.status !== 200) await new Promise((resolve) => setTimeout(resolve, 2000))
  expect(connect.status, `${JSON.stringify(body)}\n${dev.output().slice(-4000)}`).toBe(200)
  ;({ sessionId, webhookSecret: secret } = body)
  sim.scan(body.qrCode, PHONE)
  await eventOf('session.status', (data) => data.status === 'connected')
}, 180_000)

afterAll(async () => {
  await dev?.stop()
  await receiver?.close()
  await s3?.close()
  await control?.stop()
  await sim?.stop()
  state.cleanup()
}, 60_000)

describe('edge: received files in a bucket (MEDIA_STORE=s3 against s3rver, in local workerd)', () => {
  it('stores an image before its message.received (eager) and serves it from the bucket, even once WhatsApp lost it', async () => {
    const bytes = randomBytes(40_000)
    const id = await sim.contact(CONTACT).send({ image: bytes, mimetype: 'image/jpeg' }, { to: PHONE })
    const event = await received(id)
    expect(event.data.content.media).toMatchObject({ size: bytes.length, sha256: sha256(bytes) })
    expect(storedOnArrival.get(id), dev.output().slice(-3000)).toBe(true)
    expect(s3.keys()).toEqual([objectOf(id)])
    expect(s3.object(objectOf(id)).equals(bytes)).toBe(true)
    expect(uploadOf(id)).toMatchObject({
      'content-length': String(bytes.length),
      authorization: expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/auto\/s3\/aws4_request/),
    })
    expect(uploadOf(id)['transfer-encoding']).toBeUndefined()

    expect(await byApi(id)).toMatchObject({ status: 200, sha256: sha256(bytes) })
    expect(event.data.downloadUrl.startsWith(`${dev.url}/v1/media/`)).toBe(true)
    expect(await download(event.data.downloadUrl, false)).toMatchObject({ status: 200, sha256: sha256(bytes) })
    const part = await fetch(event.data.downloadUrl, { headers: { range: 'bytes=1000-1999' } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true)
    // The CDN served it once, to the eager fetch; the downloads came from the bucket
    expect(sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)

    // Gone from WhatsApp's CDN, and the phone no longer has it: only the bucket can answer
    sim.contact(CONTACT).expireMedia(id, { reupload: false })
    expect(await byApi(id)).toMatchObject({ status: 200, sha256: sha256(bytes) })
    expect(await download(event.data.downloadUrl, false)).toMatchObject({ status: 200, sha256: sha256(bytes) })
    expect(sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)
  }, 60_000)

  it('a document whose eager fetch failed is streamed to the bucket by its first request, then served from there', async () => {
    const bytes = randomBytes(400_000)
    // The CDN has dropped it before the object asks, and the phone does not answer the media retry
    const hold = sim.holdMediaDownloads()
    sim.account(PHONE).fault('phone-offline')
    const id = await sim.contact(CONTACT).send({ document: bytes, fileName: 'report.bin' }, { to: PHONE })
    sim.contact(CONTACT).expireMedia(id)
    hold()
    await received(id)
    expect(storedOnArrival.get(id)).toBe(false)
    expect(s3.keys()).not.toContain(objectOf(id))

    sim.account(PHONE).clearFaults()
    const first = await byApi(id)
    expect(first.status, first.text()).toBe(200)
    expect(first.sha256).toBe(sha256(bytes))
    expect(s3.keys()).toContain(objectOf(id))
    expect(s3.object(objectOf(id)).equals(bytes)).toBe(true)
    expect(uploadOf(id)).toMatchObject({ 'content-length': String(bytes.length) })
    expect(uploadOf(id)['transfer-encoding']).toBeUndefined()
    // Uploaded again by the phone, fetched once from there, then only the bucket
    const fetched = sim.contact(CONTACT).sentMedia(id)
    expect(fetched.downloads).toBe(1)
    sim.contact(CONTACT).expireMedia(id, { reupload: false })
    expect(await byApi(id)).toMatchObject({ status: 200, sha256: sha256(bytes) })
    expect(sim.contact(CONTACT).sentMedia(id)).toEqual(fetched)
    // One object per file, each temporary one deleted after its copy
    expect(s3.keys()).toHaveLength(2)
    expect(sim.violations()).toEqual([])
  }, 60_000)
})
