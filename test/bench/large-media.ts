/**
 * A large received file is streamed, never held: a contact's document of `megabytes` MB (made
 * by the simulator, in its own process, so its copy weighs nothing here) is fetched from the
 * simulator's CDN, decrypted, checked and written to the store, then read back, by one request,
 * while this process's RSS is sampled. The reference is the file's size.
 */
import { createHash } from 'node:crypto'
import { resolveConfig } from '../../src/config'
import { startTestGateway } from '../support/gateway'
import { pollUntil } from '../support/poll'
import { startSimulatorProcess } from './simulator-process'

export interface LargeMediaResult {
  fileMb: number
  peakRssGrowthMb: number
  /** The most that ArrayBuffers (file chunks) and the JS heap held at once during the download. */
  peakArrayBuffersMb: number
  peakHeapMb: number
  seconds: number
  mbPerSecond: number
  checked: boolean
}

const MB = 1024 * 1024
const ACCOUNT = '15550070001'
const CONTACT = '15551290001'

export async function benchLargeMedia(megabytes: number): Promise<LargeMediaResult> {
  const sim = await startSimulatorProcess()
  const defaults = resolveConfig()
  const t = await startTestGateway({
    plan: 'paid',
    config: {
      simulatorUrl: sim.controlUrl,
      rateLimitPerMinute: 0,
      media: { ...defaults.media, maxBytes: (megabytes + 1) * MB },
      inboundMedia: { ...defaults.inboundMedia, maxStoreBytes: (megabytes + 1) * MB },
    },
  })
  try {
    await sim.control('/contacts', { phone: CONTACT })
    const connect = await t.request('/v1/session/connect', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionName: 'large', webhookUrl: 'https://hooks.invalid/large' }),
    })
    const { sessionId, qrCode } = (await connect.json()) as { sessionId: string; qrCode: string }
    await sim.control('/scan', { qr: qrCode, phone: ACCOUNT })
    await pollUntil(
      async () =>
        ((await (await t.request('/v1/session/all')).json()) as { sessions: { status: string }[] }).sessions[0],
      (session) => session?.status === 'connected',
      { timeoutMs: 30_000, what: 'the session to connect' },
    )
    const { messageId } = await sim.control<{ messageId: string }>(`/contacts/${CONTACT}/messages`, {
      to: ACCOUNT,
      document: { size: megabytes * MB, fileName: 'large.bin' },
    })
    const record = await pollUntil(
      async () => (await t.request(`/v1/message/${messageId}?sessionId=${sessionId}`)).json() as Promise<any>,
      (r) => r?.messageId === messageId,
      { timeoutMs: 60_000, what: 'the record' },
    )

    const baseline = process.memoryUsage().rss
    let peak = baseline
    const started = performance.now()
    let peakBuffers = 0
    let peakHeap = 0
    const sampler = setInterval(() => {
      const usage = process.memoryUsage()
      peak = Math.max(peak, usage.rss)
      peakBuffers = Math.max(peakBuffers, usage.arrayBuffers)
      peakHeap = Math.max(peakHeap, usage.heapUsed)
    }, 10)
    const response = await t.request(`/v1/message/${messageId}/media?sessionId=${sessionId}`)
    const hash = createHash('sha256')
    const reader = response.body!.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) hash.update(chunk.value)
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    return {
      fileMb: megabytes,
      peakRssGrowthMb: Math.round((peak - baseline) / MB),
      peakArrayBuffersMb: Math.round(peakBuffers / MB),
      peakHeapMb: Math.round(peakHeap / MB),
      seconds: Math.round(seconds * 100) / 100,
      mbPerSecond: Math.round(megabytes / seconds),
      checked: response.status === 200 && hash.digest('hex') === record.content.media.sha256,
    }
  } finally {
    await t.close()
    await sim.stop()
  }
}

/** The figure in a process of its own: what ran before (garbage not yet collected) does not count. */
export async function benchLargeMediaInChild(megabytes: number): Promise<LargeMediaResult> {
  const { spawn } = await import('node:child_process')
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, String(megabytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const line = output.split('\n').find((l) => l.startsWith('{"fileMb"'))
  if (code !== 0 || !line) throw new Error(`the large-file bench process failed (${code})`)
  return JSON.parse(line) as LargeMediaResult
}

if (process.argv[1] === import.meta.filename) {
  console.log(JSON.stringify(await benchLargeMedia(Number(process.argv[2]))))
  process.exit(0)
}
