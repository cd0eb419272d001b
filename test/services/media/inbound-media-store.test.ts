import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Clock } from '../../../src/clock'
import { resolveConfig } from '../../../src/config'
import { pollUntil } from '../../support/poll'
import { startS3Server, type S3Server } from '../../support/s3-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { tempDir } from '../../support/temp-dir'
import { queryFile } from '../../support/sqlite-file'

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')
const DAY_MS = 24 * 60 * 60 * 1000

/** Sends files from a contact and reads them back through the API. */
function harness(get: () => { t: SimulatedGateway; sessionId: string }, contact: string, account: string) {
  const send = async (bytes: Buffer) => {
    const { t, sessionId } = get()
    const id = await t.sim.contact(contact).send({ document: bytes, fileName: 'f.bin' }, { to: account })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    return id
  }
  const read = async (id: string) => {
    const { t, sessionId } = get()
    const response = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
    expect(response.status).toBe(200)
    return sha256(new Uint8Array(await response.arrayBuffer()))
  }
  return { send, read }
}

describe('the local store: a size cap, and files pruned with their records', () => {
  const ACCOUNT = '15550017401'
  const CONTACT = '15551237401'
  let t: SimulatedGateway
  let sessionId: string
  // Our own directory: the database and its media outlive a gateway restart
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let offsetMs = 0
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) }
  const defaults = resolveConfig()
  const config = {
    rateLimitPerMinute: 0,
    media: { ...defaults.media, maxBytes: 10_000 },
    inboundMedia: { ...defaults.inboundMedia, maxStoreBytes: 25_000 },
  }
  const { send, read } = harness(() => ({ t, sessionId }), CONTACT, ACCOUNT)
  const mediaDir = () => join(dirname(t.databasePath), 'media')
  const storedFiles = () =>
    existsSync(mediaDir())
      ? (readdirSync(mediaDir(), { recursive: true }) as string[]).filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f))
      : []

  beforeAll(async () => {
    t = await startSimulatedGateway({ clock, config, databasePath })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('store', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    dir.cleanup()
  })

  it('past MEDIA_STORE_MAX_BYTES drops the file stored longest ago; asked again, it is fetched again', async () => {
    const files = [randomBytes(9_000), randomBytes(9_000), randomBytes(9_000)]
    const ids: string[] = []
    for (const bytes of files) {
      const id = await send(bytes)
      ids.push(id)
      expect(await read(id)).toBe(sha256(bytes))
      offsetMs += 1_000 // stored at distinct times
    }
    expect(storedFiles()).toHaveLength(2)
    expect(storedFiles()).not.toContain(
      `${sha256(`${sessionId}\0${ids[0]}`).slice(0, 2)}/${sha256(`${sessionId}\0${ids[0]}`)}`,
    )
    expect(t.sim.contact(CONTACT).sentMedia(ids[1]!).downloads).toBe(1)
    expect(await read(ids[0]!)).toBe(sha256(files[0]!))
    expect(t.sim.contact(CONTACT).sentMedia(ids[0]!).downloads).toBe(2)
    expect(storedFiles()).toHaveLength(2)
  })

  it('a file removed from the store behind the gateway’s back is fetched again', async () => {
    const bytes = randomBytes(5_000)
    const id = await send(bytes)
    await read(id)
    const { rmSync } = await import('node:fs')
    const key = sha256(`${sessionId}\0${id}`)
    rmSync(join(mediaDir(), key.slice(0, 2), key))
    expect(await read(id)).toBe(sha256(bytes))
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(2)
  })

  it('records past MESSAGE_RETENTION_DAYS go, and their files with them', async () => {
    expect(storedFiles().length).toBeGreaterThan(0)
    await t.stopGateway()
    offsetMs += 31 * DAY_MS
    // The housekeeping runs as the gateway starts
    const { sim, control } = t
    expect(queryFile(databasePath, 'SELECT count(*) AS n FROM media_files')).toEqual([{ n: storedFiles().length }])
    t = await startSimulatedGateway({ clock, config, databasePath })
    await sim.stop()
    await control.stop()
    // The files go first, then their rows
    await pollUntil(
      async () => queryFile(databasePath, 'SELECT count(*) AS n FROM media_files'),
      (rows) => (rows[0] as { n: number }).n === 0,
      { what: 'the pruned files to go' },
    )
    expect(storedFiles()).toEqual([])
    expect(queryFile(databasePath, 'SELECT count(*) AS n FROM messages')).toEqual([{ n: 0 }])
  })
})

describe('the S3 store (MEDIA_STORE=s3, against s3rver on loopback)', () => {
  const ACCOUNT = '15550017501'
  const CONTACT = '15551237501'
  let s3: S3Server
  let t: SimulatedGateway
  let sessionId: string
  const { send, read } = harness(() => ({ t, sessionId }), CONTACT, ACCOUNT)

  beforeAll(async () => {
    s3 = await startS3Server()
    const defaults = resolveConfig()
    t = await startSimulatedGateway({
      config: {
        rateLimitPerMinute: 0,
        inboundMedia: {
          ...defaults.inboundMedia,
          store: {
            kind: 's3',
            endpoint: s3.endpoint,
            bucket: s3.bucket,
            region: 'us-east-1',
            accessKeyId: s3.accessKeyId,
            secretAccessKey: s3.secretAccessKey,
            prefix: 'wa/media/',
            timeoutMs: 15_000,
          },
        },
      },
    })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('s3', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await s3?.close()
  })

  it('stores each file as one object under the prefix and serves it, with Range, from there', async () => {
    const bytes = randomBytes(200_000)
    const id = await send(bytes)
    expect(await read(id)).toBe(sha256(bytes))
    expect(s3.keys()).toEqual([`wa/media/${sha256(`${sessionId}\0${id}`)}`])
    const part = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`, {
      headers: { range: 'bytes=1000-1999' },
    })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true)
    expect(await read(id)).toBe(sha256(bytes))
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)
    expect(existsSync(join(dirname(t.databasePath), 'media'))).toBe(false)
  })

  it('a file that fails its checks never gets an object under its name', async () => {
    const id = await t.sim
      .contact(CONTACT)
      .send({ image: randomBytes(50_000), mimetype: 'image/png', tamper: 'mac' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    expect((await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)).status).toBe(422)
    // Only a temporary object may be left, by a server that keeps a broken upload (s3rver does; AWS does not)
    const name = `wa/media/${sha256(`${sessionId}\0${id}`)}`
    expect(s3.keys().filter((key) => !key.startsWith('wa/media/tmp/'))).not.toContain(name)
    expect(s3.keys().filter((key) => !key.startsWith('wa/media/tmp/'))).toHaveLength(1)
  })
})
