import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaStoreError } from '../../../src/media/store'
import { createS3MediaStore } from '../../../src/media/store/s3'
import { startFaultyBucket, type FaultyBucket } from '../../support/faulty-bucket'
import { startS3Server, type S3Server } from '../../support/s3-server'

const DEADLINE_MS = 600

/** `chunks` chunks of 1 KB, `gapMs` apart: a WhatsApp download slower than the bucket's deadline. */
const slowSource = (chunks: number, gapMs: number) =>
  new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let i = 0; i < chunks; i++) {
        await sleep(gapMs)
        controller.enqueue(new Uint8Array(1024).fill(i))
      }
      controller.close()
    },
  })

describe('the S3 store’s deadline counts only the waits on the bucket', () => {
  let s3: S3Server
  let bucket: FaultyBucket
  const store = () =>
    createS3MediaStore({
      kind: 's3',
      endpoint: bucket.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      prefix: 'p/',
      timeoutMs: DEADLINE_MS,
    })
  beforeAll(async () => {
    s3 = await startS3Server()
    bucket = await startFaultyBucket(s3.endpoint)
  })
  afterAll(async () => {
    await bucket.close()
    await s3.close()
  })

  it('an upload whose source is slower than the deadline is kept whole', async () => {
    await store().put('slow', slowSource(3, DEADLINE_MS * 2), 3 * 1024)
    const body = await store().get('slow')
    expect(new Uint8Array(await new Response(body).arrayBuffer())).toEqual(
      Uint8Array.from({ length: 3 * 1024 }, (_, i) => Math.floor(i / 1024)),
    )
  })

  it('a bucket that stops reading fails the upload with a timeout and cancels its source', async () => {
    bucket.fault = 'silent'
    let cancelled = false
    // Far more than socket buffers hold, so the upload itself stalls
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)),
      cancel: () => {
        cancelled = true
      },
    })
    const started = Date.now()
    const failed = await store()
      .put('stalled', source, 1024 * 1024 * 1024)
      .catch((error: unknown) => error)
    bucket.fault = 'none'
    expect(failed).toBeInstanceOf(MediaStoreError)
    expect(failed).toMatchObject({ kind: 'timeout' })
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2_000)
    expect(cancelled).toBe(true)
  })
})
