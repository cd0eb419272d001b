/**
 * `npm run bench [-- --only memory,sends,media,webhooks] [--sessions 10,50]`: prints the gateway's
 * figures, a table per benchmark and one JSON line per figure.
 */
import { parseArgs } from 'node:util'
import { benchMedia } from './media'
import { measureMemory } from './memory'
import { benchSends } from './sends'
import { measureWebhookLatency, measureWebhookThroughput } from './webhooks'

const { values } = parseArgs({
  options: { sessions: { type: 'string', default: '10,50' }, only: { type: 'string', default: 'memory,sends,media,webhooks' } },
})
const only = new Set(values.only.split(','))

if (only.has('memory')) {
  const steps = values.sessions.split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b)
  console.log(`Gateway memory with N connected sessions against the simulator (Node ${process.version})`)
  const rows = await measureMemory(steps)
  console.log('sessions  rss MB  per session MB  connect s')
  for (const row of rows) {
    console.log(
      `${String(row.sessions).padStart(8)}  ${row.rssMb.toFixed(1).padStart(6)}  ${row.perSessionMb.toFixed(2).padStart(14)}  ${row.connectSeconds.toFixed(1).padStart(9)}`,
    )
  }
  console.log(JSON.stringify({ benchmark: 'memory', rows }))
}

if (only.has('sends')) {
  console.log('\nText sends through the API and Baileys to the simulator (in its own process)')
  for (const sessions of [1, 4]) {
    const sends = await benchSends(2_000, 32, sessions)
    console.log(
      `  ${sessions} session(s), ${sends.messages} messages, ${sends.concurrency} in flight: ${sends.messagesPerSecond} msg/s   p50 ${sends.p50Ms} ms   p99 ${sends.p99Ms} ms   received by the simulator: ${sends.receivedBySimulator}`,
    )
    console.log(JSON.stringify({ benchmark: 'sends', ...sends }))
  }
}

if (only.has('media')) {
  const media = await benchMedia()
  console.log(`\nMedia conversion: voice note (10 s mp3) ${media.voiceNoteMs} ms, animated sticker (2 s GIF) ${media.stickerMs} ms`)
  console.log(JSON.stringify({ benchmark: 'media', ...media }))
}

if (only.has('webhooks')) {
  console.log('\nWebhook throughput: a full outbox to a receiver in another process (every signature verified)')
  const throughput = await measureWebhookThroughput(8, 2_500)
  console.log(
    `${throughput.events} events over ${throughput.sessions} sessions in ${throughput.seconds.toFixed(2)} s: ${Math.round(throughput.eventsPerSecond)} events/s, lost ${throughput.lost}, bad signatures ${throughput.badSignatures}, out of order ${throughput.outOfOrder}`,
  )
  console.log(JSON.stringify({ benchmark: 'webhook-throughput', ...throughput }))
  const latency = await measureWebhookLatency(50)
  console.log(`WhatsApp event → receiver (message.received, ${latency.messages} messages): p50 ${latency.p50Ms} ms, p95 ${latency.p95Ms} ms, max ${latency.maxMs} ms`)
  console.log(JSON.stringify({ benchmark: 'webhook-latency', ...latency }))
}
