import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/logger'
import { MEDIA_UNAVAILABLE } from '../../../src/services/media/fetch'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { queryFile } from '../../support/sqlite-file'

const ACCOUNT = '15550017201'
const CONTACT = '15551237201'
const RETRY_TIMEOUT_MS = 800

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** WhatsApp's CDN drops files: the gateway asks the phone to upload them again, once. */
describe('inbound media: expiry and re-upload', () => {
  let t: SimulatedGateway
  let sessionId: string
  const logs: string[] = []

  beforeAll(async () => {
    t = await startSimulatedGateway({
      logger: createLogger('info', { write: (line: string) => void logs.push(line) }),
      config: {
        rateLimitPerMinute: 0,
        inboundMedia: {
          ...(await import('../../../src/config')).resolveConfig().inboundMedia,
          retryTimeoutMs: RETRY_TIMEOUT_MS,
        },
      },
    })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('expiry', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  const send = async (bytes: Buffer) => {
    const id = await t.sim.contact(CONTACT).send({ document: bytes, fileName: 'f.bin' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    return id
  }
  const download = (id: string) => t.request(`/v1/message/${encodeURIComponent(id)}/media?sessionId=${sessionId}`)
  const error = async (response: Response) => ({ status: response.status, ...((await response.json()) as any) })

  for (const status of [410, 404] as const) {
    it(`a file the CDN answers ${status} for is uploaded again by the phone and served; the record keeps its new place`, async () => {
      const bytes = randomBytes(7000)
      const id = await send(bytes)
      const firstPath = t.sim.contact(CONTACT).sentMedia(id).directPath
      t.sim.contact(CONTACT).expireMedia(id, { status })

      const response = await download(id)
      expect(response.status).toBe(200)
      expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes))
      const now = t.sim.contact(CONTACT).sentMedia(id)
      expect(now.directPath).not.toBe(firstPath)
      expect(now.downloads).toBe(1)
      // The stored proto points at the new upload (a later fetch, e.g. after eviction, goes there)
      const [row] = queryFile(t.databasePath, 'SELECT payload FROM messages WHERE id = ?', [id]) as {
        payload: Uint8Array
      }[]
      const payload = Buffer.from(row!.payload) // bun:sqlite answers a Uint8Array
      expect(payload.includes(Buffer.from(now.directPath))).toBe(true)
      expect(payload.includes(Buffer.from(firstPath))).toBe(false)
    })
  }

  it('in a group the retry names the author as the phone knows it, and the file comes back', async () => {
    const group = t.sim.createGroup('Files', [ACCOUNT, CONTACT], ACCOUNT)
    const bytes = randomBytes(3000)
    const id = await t.sim.contact(CONTACT).send({ image: bytes, mimetype: 'image/png' }, { group: group.jid })
    const record = await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    expect(record).toMatchObject({ phone: group.jid, participant: CONTACT })
    t.sim.contact(CONTACT).expireMedia(id, { status: 410 })
    const response = await download(id)
    expect(response.status).toBe(200)
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes))
    expect(t.sim.violations()).toEqual([])
  })

  // A file gone for good is the one media_unavailable of every failed download (a contact names
  // where its file is: the answer must not tell what answered there); why is in the log.
  it('a phone that no longer has the file: 422 media_unavailable, and again on the next request', async () => {
    const id = await send(randomBytes(500))
    t.sim.contact(CONTACT).expireMedia(id, { reupload: false })
    const answer = await error(await download(id))
    expect(answer).toMatchObject({ status: 422, error: 'media_unavailable', message: MEDIA_UNAVAILABLE })
    expect(logs.some((line) => line.includes(id) && line.includes('the phone answered NOT_FOUND'))).toBe(true)
    expect((await download(id)).status).toBe(422)
  })

  it('a phone that does not answer within MEDIA_RETRY_TIMEOUT_MS: 422 media_unavailable', async () => {
    const id = await send(randomBytes(500))
    t.sim.contact(CONTACT).expireMedia(id)
    t.sim.account(ACCOUNT).fault('phone-offline')
    try {
      const started = Date.now()
      const answer = await error(await download(id))
      expect(answer).toMatchObject({ status: 422, error: 'media_unavailable', message: MEDIA_UNAVAILABLE })
      expect(
        logs.some((line) => line.includes(id) && line.includes('did not answer the media retry within 800 ms')),
      ).toBe(true)
      expect(Date.now() - started).toBeGreaterThanOrEqual(RETRY_TIMEOUT_MS)
    } finally {
      t.sim.account(ACCOUNT).clearFaults()
    }
    // Once the phone is back, the same file comes back
    expect((await download(id)).status).toBe(200)
  })

  it('an expired file while the session is offline: 422, its phone cannot be asked', async () => {
    const id = await send(randomBytes(500))
    t.sim.contact(CONTACT).expireMedia(id)
    t.sim.account(ACCOUNT).fault('unreachable')
    try {
      await t.waitForStatus(sessionId, 'connecting')
      expect(await error(await download(id))).toMatchObject({ status: 422, error: 'media_unavailable' })
      expect(logs.some((line) => line.includes(id) && line.includes('the session is not connected'))).toBe(true)
    } finally {
      t.sim.account(ACCOUNT).clearFaults()
    }
    await t.waitForStatus(sessionId, 'connected')
    expect((await download(id)).status).toBe(200)
    expect(t.sim.violations()).toEqual([])
  })
})
