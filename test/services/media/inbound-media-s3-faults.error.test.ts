import { createHash, randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig, type MediaStoreConfig } from '../../../src/config'
import { createLogger } from '../../../src/logger'
import { startFaultyBucket, type FaultyBucket } from '../../support/faulty-bucket'
import { pollUntil } from '../../support/poll'
import { startS3Server, type S3Server } from '../../support/s3-server'
import { startSimulatedGateway } from '../../support/simulated-gateway'

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')
/** MEDIA_S3_TIMEOUT_MS in these tests: short, so a stalled bucket is told from a slow one quickly. */
const DEADLINE_MS = 1_000

/** The promise's value, or a failure naming what was still pending after `ms` (a hang is a failure, not a timeout of the suite). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** A gateway whose S3 store is `store`, its log lines kept; a contact that sends it files. */
async function gatewayWithStore(
  store: Partial<Extract<MediaStoreConfig, { kind: 's3' }>>,
  account: string,
  contact: string,
  download: 'lazy' | 'eager' = 'lazy',
) {
  const logs: string[] = []
  const defaults = resolveConfig()
  const t = await startSimulatedGateway({
    logger: createLogger('info', { write: (line: string) => void logs.push(line) }),
    config: {
      rateLimitPerMinute: 0,
      inboundMedia: {
        ...defaults.inboundMedia,
        download,
        store: {
          kind: 's3',
          endpoint: '',
          bucket: 'wa-media',
          region: 'us-east-1',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          prefix: 'wa/',
          timeoutMs: 15_000,
          ...store,
        } as MediaStoreConfig,
      },
    },
  })
  t.sim.addContact(contact)
  const sessionId = await t.pairByQr('faults', account)
  const send = async (bytes: Buffer) => {
    const id = await t.sim.contact(contact).send({ document: bytes, fileName: 'f.bin' }, { to: account })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    return id
  }
  const media = (id: string) => t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
  return { t, sessionId, logs, send, media }
}

describe('the S3 store against a bucket that misbehaves (MEDIA_S3_TIMEOUT_MS)', () => {
  let s3: S3Server
  let bucket: FaultyBucket
  let g: Awaited<ReturnType<typeof gatewayWithStore>>

  beforeAll(async () => {
    s3 = await startS3Server()
    bucket = await startFaultyBucket(s3.endpoint)
    g = await gatewayWithStore({ endpoint: bucket.endpoint, timeoutMs: DEADLINE_MS }, '15550029601', '15551239601')
  }, 60_000)
  afterEach(() => {
    bucket.fault = 'none'
  })
  afterAll(async () => {
    await g?.t.close()
    await bucket?.close()
    await s3?.close()
  })

  /** The answer to GET media, with how long it took; a hang fails after 5 s. */
  const timedMedia = async (id: string) => {
    const started = Date.now()
    const response = await within(5_000, 'GET media', g.media(id))
    return { response, ms: Date.now() - started }
  }

  it('a file not stored yet: 504 when the bucket takes the upload and never answers, 502 when it is down', async () => {
    const silent = await g.send(randomBytes(20_000))
    bucket.fault = 'silent'
    const timedOut = await timedMedia(silent)
    expect(timedOut.response.status).toBe(504)
    expect(await timedOut.response.json()).toMatchObject({ error: 'upstream_timeout' })
    expect(timedOut.ms).toBeLessThan(DEADLINE_MS + 2_000)

    const down = await g.send(randomBytes(20_000))
    bucket.fault = 'down'
    const refused = await timedMedia(down)
    expect(refused.response.status).toBe(502)
    expect(await refused.response.json()).toMatchObject({ error: 'upstream_error' })

    // Once the bucket answers again, the same files are fetched and stored.
    bucket.fault = 'none'
    for (const id of [silent, down]) expect((await timedMedia(id)).response.status).toBe(200)
  })

  it('a file already stored: 502 when the bucket is down, 504 when it is silent, the body cut off when it stalls', async () => {
    const bytes = randomBytes(300_000)
    const id = await g.send(bytes)
    const first = await timedMedia(id)
    expect(sha256(new Uint8Array(await first.response.arrayBuffer()))).toBe(sha256(bytes))

    bucket.fault = 'down'
    const down = await timedMedia(id)
    expect(down.response.status).toBe(502)
    expect(await down.response.json()).toMatchObject({ error: 'upstream_error' })

    bucket.fault = 'silent'
    const silent = await timedMedia(id)
    expect(silent.response.status).toBe(504)
    expect(await silent.response.json()).toMatchObject({ error: 'upstream_timeout' })

    // Headers, then half a chunk, then nothing: the answer is already 200, so it breaks off.
    bucket.fault = 'stall-body'
    const stalled = await timedMedia(id)
    expect(stalled.response.status).toBe(200)
    const started = Date.now()
    await expect(within(5_000, 'the stalled body', stalled.response.arrayBuffer())).rejects.not.toThrow(/still waiting/)
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2_000)
    expect(g.t.sim.contact('15551239601').sentMedia(id).downloads).toBe(1)
  })
})

describe('eager downloads behind a bucket that never answers', () => {
  let s3: S3Server
  let bucket: FaultyBucket
  let g: Awaited<ReturnType<typeof gatewayWithStore>>

  beforeAll(async () => {
    s3 = await startS3Server()
    bucket = await startFaultyBucket(s3.endpoint)
    g = await gatewayWithStore(
      { endpoint: bucket.endpoint, timeoutMs: DEADLINE_MS },
      '15550029602',
      '15551239602',
      'eager',
    )
  }, 60_000)
  afterAll(async () => {
    await g?.t.close()
    await bucket?.close()
    await s3?.close()
  })

  it('give their slots back at the deadline: the next file is stored', async () => {
    bucket.fault = 'silent'
    // As many as there are eager slots (4), each stuck in its upload
    for (let i = 0; i < 4; i++) await g.send(randomBytes(10_000))
    await pollUntil(
      async () => bucket.requests.filter((r) => r.startsWith('PUT ')).length,
      (puts) => puts >= 4,
      { what: 'four uploads to reach the silent bucket' },
    )
    bucket.fault = 'none'
    const next = await g.send(randomBytes(10_000))
    const name = `wa/${sha256(`${g.sessionId}\0${next}`)}`
    await pollUntil(
      async () => s3.keys(),
      (keys) => keys.includes(name),
      { what: 'the next file in the bucket', timeoutMs: 5_000 },
    )
  })
})

describe('S3 credentials in the log', () => {
  const ACCESS_KEY_ID = 'AKIAGATEWAYTESTKEY01'
  const SECRET = 'gateway-test-secret-0123456789abcdefghij'
  let s3: S3Server
  let g: Awaited<ReturnType<typeof gatewayWithStore>>

  beforeAll(async () => {
    s3 = await startS3Server()
    // A key the bucket does not know: S3 (and s3rver) name it in the error they answer
    g = await gatewayWithStore(
      { endpoint: s3.endpoint, accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET },
      '15550029603',
      '15551239603',
    )
  }, 60_000)
  afterAll(async () => {
    await g?.t.close()
    await s3?.close()
  })

  it('never carry the access key id or the secret, though the bucket’s refusal names the key', async () => {
    const id = await g.send(randomBytes(5_000))
    const refused = await g.media(id)
    expect(refused.status).toBe(502)
    expect(await refused.json()).toMatchObject({ error: 'upstream_error' })
    const refusal = g.logs.find((line) => line.includes('the media store refused a file'))
    expect(refusal).toContain('InvalidAccessKeyId') // what went wrong is still said
    const all = g.logs.join('\n')
    expect(all).not.toContain(ACCESS_KEY_ID)
    expect(all).not.toContain(SECRET)
  })
})
