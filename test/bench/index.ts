/**
 * `npm run bench [-- --quick] [--only figures,optimisations,scale,soak,sends,metrics,media,webhooks,inbound,inbound-media,chat-list,history] [--sessions 100] [--scale 5000] [--restore-concurrency 50] [--soak-minutes 30]`
 *
 * Every figure of the performance issue as a ratio against its reference measured in the same
 * run (bare Hono route, bare Baileys sockets with an in-memory key store, `node` + Hono start),
 * then the many-sessions figures, a table each and one JSON line per figure. `--quick` is the
 * figures alone, in about a minute (short runs, 20 sessions). `--quick --only sends` runs text
 * sends against bare Baileys with 1 session, 2 rounds of 250 messages, no document sends;
 * `--quick --only history` runs them small: 2 sessions × 2,000 messages, a 256 MiB file; `--quick --only
 * inbound` runs 3 s paced and 500 texts a session in the burst, about a minute).
 */
import { parseArgs } from 'node:util'
import { measureInProcess } from './in-process'
import { benchChatList } from './chat-list'
import { benchInboundMedia } from './inbound-media'
import { benchLargeMediaInChild } from './large-media'
import { benchMedia } from './media'
import { measureHistoryImport } from './history'
import { measureHistoryBomb } from './history-bomb'
import { measureInbound } from './inbound'
import { measureMemory } from './memory'
import { measureScale } from './scale'
import { measureSoak } from './soak'
import { benchDocumentSends } from './document-sends'
import { benchSends } from './sends'
import { measureMetricsScrape } from './metrics'
import { measureOptimisations } from './optimisations'
import { measurePacingOff } from './pacing'
import { measureStartup } from './startup'
import { measureThroughput } from './throughput'
import { measureWebhookLatency, measureWebhookThroughput } from './webhooks'

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sessions: { type: 'string' },
    scale: { type: 'string' },
    'restore-concurrency': { type: 'string' },
    'soak-minutes': { type: 'string' },
    only: { type: 'string' },
  },
})
const quick = values.quick
const only = new Set(
  (
    values.only ??
    (quick
      ? 'figures'
      : 'figures,optimisations,scale,soak,sends,metrics,media,webhooks,inbound,inbound-media,chat-list,history')
  ).split(','),
)
const memorySessions = Number(values.sessions ?? (quick ? 20 : 100))
const scaleSessions = Number(values.scale ?? 5000)
// Every login holds its slot while it handshakes: at 20 a 2-core machine idled half the restore
const restoreConcurrency = Number(values['restore-concurrency'] ?? 50)
const soakMinutes = Number(values['soak-minutes'] ?? 30)

interface Figure {
  figure: string
  value: number
  reference: number
  unit: string
  /** value / reference, always (for req/s higher is better, for µs, MB and ms lower). */
  ratio: number
  target: string
}

const figures: Figure[] = []
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits
function figure(name: string, value: number, reference: number, unit: string, target: string): void {
  const row = {
    figure: name,
    value: round(value, 1),
    reference: round(reference, 1),
    unit,
    ratio: round(value / reference),
    target,
  }
  figures.push(row)
  console.log(
    `${name.padEnd(58)} ${`${row.value} ${unit}`.padStart(14)}  vs ${`${row.reference} ${unit}`.padStart(14)}  ${`${row.ratio}×`.padStart(7)}  (target ${target})`,
  )
  console.log(JSON.stringify({ benchmark: 'figure', ...row }))
}

if (only.has('figures')) {
  console.log(`Figures against their references, same run (Node ${process.version}${quick ? ', --quick' : ''})`)
  const http = await measureThroughput({ quick })
  figure(
    'authed GET /v1/session/all req/s vs bare Hono (32 conn)',
    http.sessionListRps,
    http.bareRps,
    'req/s',
    '≥ 0.5×',
  )
  figure(
    `  the same vs a bare Hono route sending the same ${http.bodyBytes} bytes`,
    http.sessionListRps,
    http.bareSameBodyRps,
    'req/s',
    '—',
  )
  const inProcess = await measureInProcess({ quick })
  figure('app.request /health µs vs bare Hono app.request', inProcess.healthUs, inProcess.bareUs, 'µs', '≤ 20 µs')
  figure('app.request authed /v1/workspace µs vs bare Hono', inProcess.workspaceUs, inProcess.bareUs, 'µs', '≤ 40 µs')
  figure(
    'app.request authed /v1/session/all (10 sessions) µs vs bare',
    inProcess.sessionListUs,
    inProcess.bareUs,
    'µs',
    '≤ 60 µs',
  )
  const memory = await measureMemory(memorySessions, { idleMs: quick ? 3_000 : 90_000 })
  figure(
    `RSS, ${memory.sessions} sessions idle ${memory.idleSeconds} s vs bare Baileys sockets`,
    memory.gatewayMb,
    memory.bareMb,
    'MB',
    '≤ 1.10×',
  )
  figure(
    `RSS, ${memory.sessions} sessions 3 s after connecting vs bare`,
    memory.gatewayConnectedMb,
    memory.bareConnectedMb,
    'MB',
    '—',
  )
  figure('RSS, 0 sessions vs a bare Baileys process', memory.gatewayIdleMb, memory.bareIdleMb, 'MB', '—')
  const startup = await measureStartup({ quick })
  figure(
    'cold start to 200 /health, dev: tsx src/cli.ts serve vs node + Hono',
    startup.tsxMs,
    startup.bareMs,
    'ms',
    '— (npm start runs the compiled JS)',
  )
  figure('cold start to 200 /health, compiled JS vs node + Hono', startup.compiledMs, startup.bareMs, 'ms', '≤ 4×')
  figure('RSS after start, compiled JS vs node + Hono', startup.compiledRssMb, startup.bareRssMb, 'MB', '—')
}

if (only.has('scale')) {
  console.log(
    `\n${scaleSessions} sessions in one gateway process, the simulator in its own (devices minted, every login through the restore path)`,
  )
  const scale = await measureScale(scaleSessions, { restoreConcurrency })
  const { baseline, all } = scale
  figure(
    `RSS MB, ${all.sessions} sessions connected (5 s settled) vs target`,
    all.rssMb,
    2_500,
    'MB',
    '≤ 2,500 MB (≤ 1×)',
  )
  figure(
    `  the same after a forced GC vs ${baseline.sessions} sessions`,
    all.rssAfterGcMb,
    baseline.rssAfterGcMb,
    'MB',
    '—',
  )
  figure(
    `marginal RSS per idle session, ${baseline.sessions} → ${all.sessions} (after GC) vs target`,
    scale.marginalRssMb,
    0.4,
    'MB',
    '≤ 0.4 MB (≤ 1×)',
  )
  figure(
    `all ${all.sessions} back after a restart, s vs target`,
    all.restoreSeconds,
    150,
    's',
    `≤ 150 s (≤ 1×), ≤ ${scale.restoreConcurrency} logins at once`,
  )
  figure('authed API p99 ms at 200 req/s, all connected vs target', scale.apiP99Ms, 50, 'ms', '< 50 ms (< 1×)')
  figure('GET /metrics p50 ms, all connected vs target', scale.metricsScrapeP50Ms, 50, 'ms', '< 50 ms (< 1×)')
  console.log(
    `  minted and stored in ${scale.mintSeconds.toFixed(1)} s; restore of ${baseline.sessions}: ${baseline.restoreSeconds.toFixed(1)} s, of ${all.sessions}: ${all.restoreSeconds.toFixed(1)} s, ` +
      `at most ${all.peakLogins} logging in at once; CPU over the restore: gateway ${all.gatewayCores.toFixed(2)} cores, simulator ${all.simulatorCores.toFixed(2)} cores; ` +
      `heap after GC ${baseline.heapAfterGcMb.toFixed(0)} → ${all.heapAfterGcMb.toFixed(0)} MB (${scale.marginalHeapKb.toFixed(1)} KB a session); ` +
      `API ${scale.apiRequests} requests, ${scale.apiErrors} failed; GET /metrics slowest ${scale.metricsScrapeMaxMs} ms of 20 (${scale.metricsBytes} bytes); ` +
      `${scale.webhookEvents} webhook events delivered to the local receiver (${scale.webhookBadSignatures} bad signatures)`,
  )
  console.log(JSON.stringify({ benchmark: 'scale', ...scale }))
}

if (only.has('soak')) {
  console.log(
    `\nSoak: 200 sessions for ${soakMinutes} minutes, texts out and in all along, a tenth dropped by WhatsApp every 3 minutes`,
  )
  const soak = await measureSoak({ sessions: 200, minutes: soakMinutes })
  const first = soak.samples[1] ?? soak.samples[0]!
  const last = soak.samples.at(-1)!
  figure(
    'soak: RSS MB at the end vs at minute 1',
    last.rssMb,
    first.rssMb,
    'MB',
    `flat (slope ${soak.rssMbPerHour.toFixed(1)} MB/h; anonymous ${soak.anonymousMbPerHour.toFixed(1)}, mapped files ${soak.fileMbPerHour.toFixed(1)} MB/h)`,
  )
  figure(
    'soak: heap after GC MB at the end vs at minute 1',
    last.heapAfterGcMb,
    first.heapAfterGcMb,
    'MB',
    `flat (slope ${soak.heapMbPerHour.toFixed(1)} MB/h; committed ${soak.heapTotalMbPerHour.toFixed(1)}, external ${soak.externalMbPerHour.toFixed(1)} MB/h)`,
  )
  figure(
    'soak: live handles at the end vs at minute 1',
    last.handles,
    first.handles,
    '',
    `no growth (slope ${soak.handlesPerHour.toFixed(1)}/h)`,
  )
  figure(
    'soak: event listeners at the end vs at minute 1',
    last.listeners,
    first.listeners,
    '',
    `no growth (slope ${soak.listenersPerHour.toFixed(1)}/h)`,
  )
  console.log(
    `  ${soak.drops} drops; texts out: ${soak.sent.accepted} accepted (${soak.sent.refused} refused while a session was down), ${soak.sent.receivedBySimulator} received by the simulator, ${soak.sent.reportedFailed} reported failed (no server ack: the connection died with the frame), lost ${soak.sent.lost}; ` +
      `texts in: ${soak.received.sentByContacts} sent by contacts, ${soak.received.delivered} delivered as message.received, lost ${soak.received.lost}`,
  )
  console.log(JSON.stringify({ benchmark: 'soak', ...soak }))
}

if (only.has('sends')) {
  console.log(
    '\nText sends through the API and Baileys vs bare Baileys sendMessage, same sessions, same simulator (in its own process)',
  )
  let oneSessionRate = 0
  for (const sessions of quick ? [1] : [1, 4]) {
    // Two rounds at least, also in --quick: in one, the side that runs first meets colder code.
    const sends = await benchSends(quick ? 250 : 2_000, 32, sessions, 2)
    if (sessions === 1) oneSessionRate = sends.gateway.messagesPerSecond
    figure(
      `text sends msg/s, ${sessions} session(s), ${sends.concurrency} in flight: gateway vs bare sendMessage`,
      sends.gateway.messagesPerSecond,
      sends.bare.messagesPerSecond,
      'msg/s',
      '≥ 0.8×',
    )
    figure(
      '  the same: CPU µs per message of the sending process',
      sends.gateway.cpuUsPerMessage,
      sends.bare.cpuUsPerMessage,
      'µs',
      '— (≤ 1.25× is 0.8× the rate)',
    )
    for (const [side, run] of [
      ['gateway', sends.gateway],
      ['bare', sends.bare],
    ] as const)
      console.log(
        `  ${side.padEnd(7)} ${sends.messages} messages × ${sends.rounds} rounds: ${run.messagesPerSecond} msg/s   p50 ${run.p50Ms} ms   p99 ${run.p99Ms} ms   ${run.cpuUsPerMessage} µs CPU/message   received by the simulator: ${run.receivedBySimulator}   simulator CPU ${Math.round(run.simulatorCpuShare * 100)}% of a core`,
      )
    console.log(
      `  each round's ratio: ${sends.runs.gateway.map((run, i) => (run.messagesPerSecond / sends.runs.bare[i]!.messagesPerSecond).toFixed(2)).join(' · ')}`,
    )
    console.log(JSON.stringify({ benchmark: 'sends', ...sends }))
  }
  // Every send above ran with pacing off; this is what that step took of each.
  const pacing = await measurePacingOff()
  figure(
    'send pacing off: its step per send µs vs one text send (1 session)',
    pacing.nsPerSend / 1000,
    1e6 / oneSessionRate,
    'µs',
    '≤ 0.01×',
  )
  if (!quick) {
    const documents = await benchDocumentSends()
    console.log(
      `  a ${documents.megabytes} MB document, ${documents.sends} sends one at a time: p50 ${documents.p50Ms} ms   p99 ${documents.p99Ms} ms   ${documents.megabytesPerSecond} MB/s   received by the simulator: ${documents.receivedBySimulator}`,
    )
    console.log(JSON.stringify({ benchmark: 'document-sends', ...documents }))
  }
}

if (only.has('chat-list')) {
  console.log('\nGET /v1/chat/all, one session with 100,000 records in 1,000 chats (in process)')
  const chats = await benchChatList({ rounds: quick ? 5 : 21 })
  figure(
    'GET /v1/chat/all ms (page of 50) vs GET /v1/message/all',
    chats.chatListMs,
    chats.messageListMs,
    'ms',
    '≤ 50 ms',
  )
  console.log(`  query plan: ${chats.plan.join(' | ')}`)
  if (!chats.plan.some((line) => line.includes('COVERING INDEX messages_chat_idx')))
    throw new Error('the chat list no longer reads messages_chat_idx alone')
  console.log(JSON.stringify({ benchmark: 'chat-list', ...chats }))
}

if (only.has('metrics')) {
  console.log('\nGET /metrics with 1,000 sessions stored (in process)')
  const metrics = await measureMetricsScrape(1_000, { quick })
  figure('GET /metrics µs, 1,000 sessions vs app.request /health', metrics.scrapeUs, metrics.healthUs, 'µs', '≤ 20 ms')
  figure(
    'authed /v1/workspace µs, /metrics on vs off',
    metrics.workspaceMetricsOnUs,
    metrics.workspaceMetricsOffUs,
    'µs',
    '≤ 1.10×',
  )
  console.log(JSON.stringify({ benchmark: 'metrics', ...metrics }))
}

if (only.has('optimisations')) {
  console.log('\nWhat each optimisation of src/perf/ buys: server CPU per authed /v1/session/all, with and without it')
  for (const o of await measureOptimisations({ quick })) {
    figure(`  ${o.name}: CPU µs/request without it vs with it`, o.withoutUs, o.withUs, 'µs', '> 1.05× (else delete it)')
  }
}

if (only.has('media')) {
  const media = await benchMedia()
  console.log(
    `\nMedia conversion: voice note (10 s mp3) ${media.voiceNoteMs} ms, animated sticker (2 s GIF) ${media.stickerMs} ms`,
  )
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
  console.log(
    `WhatsApp event → receiver (message.received, ${latency.messages} messages): p50 ${latency.p50Ms} ms, p95 ${latency.p95Ms} ms, max ${latency.maxMs} ms`,
  )
  console.log(JSON.stringify({ benchmark: 'webhook-latency', ...latency }))
}
if (only.has('inbound')) {
  console.log(
    "\nA contact's texts → message.received at a receiver in its own process, 8 sessions (gateway, simulator and receiver each in their own process)",
  )
  const inbound = await measureInbound({
    sessions: 8,
    rate: 1_000,
    seconds: quick ? 3 : 10,
    burstPerSession: quick ? 500 : 2_500,
  })
  const { paced, burst, calm, bare } = inbound
  figure(
    `paced at ${paced.targetPerSecond} msg/s: delivered msg/s vs the simulator's send rate`,
    paced.deliveredPerSecond,
    paced.sentPerSecond,
    'msg/s',
    '≥ 1,000 msg/s',
  )
  figure(`  the same: p99 ms, send → receiver vs at 100 msg/s`, paced.p99Ms, calm.p99Ms, 'ms', '< 100 ms')
  figure(
    '  bare Baileys sockets, same sessions: msg/s vs sent',
    bare.paced.deliveredPerSecond,
    bare.paced.sentPerSecond,
    'msg/s',
    '—',
  )
  figure(
    'burst: delivered msg/s vs bare Baileys sockets',
    burst.deliveredPerSecond,
    bare.burst.deliveredPerSecond,
    'msg/s',
    '≥ 1,000 msg/s',
  )
  figure(
    '  the same: CPU ms a message, gateway vs bare sockets',
    burst.cpuMsPerMessage,
    bare.burst.cpuMsPerMessage,
    'ms',
    '—',
  )
  for (const [name, r] of [
    ['calm', calm],
    ['paced', paced],
    ['burst', burst],
  ] as const)
    console.log(
      `  ${name}: ${r.messages} messages, lost ${r.lost}, out of order ${r.outOfOrder}, duplicates ${r.duplicates}; p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms; CPU (cores) gateway ${r.cpu.gateway}, simulator ${r.cpu.simulator}, receiver ${r.cpu.receiver}; gateway CPU ${r.cpuMsPerMessage} ms and disk writes ${r.diskKibPerMessage} KiB a message; slowest /health ${r.healthMaxMs} ms`,
    )
  for (const [name, r] of Object.entries(bare))
    console.log(
      `  bare ${name}: ${r.messages} messages, lost ${r.lost}, out of order ${r.outOfOrder}; ${r.deliveredPerSecond} msg/s; p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms; CPU (cores) bare ${r.cpu.bare}, simulator ${r.cpu.simulator}; ${r.cpuMsPerMessage} ms a message`,
    )
  console.log(
    `  bad signatures ${inbound.badSignatures}, a session's sequence not growing ${inbound.sequenceOutOfOrder} (a retried delivery arrives twice)`,
  )
  console.log(JSON.stringify({ benchmark: 'inbound', ...inbound }))
}
if (only.has('inbound-media')) {
  console.log(
    '\nReceived files: a contact’s 1 MB image → message.received at a loopback receiver → downloaded by its downloadUrl',
  )
  const inbound = await benchInboundMedia(quick ? 10 : 40, 4)
  figure(
    `1 MB image → event → file by downloadUrl p50 vs a text → event p50 (${inbound.files} each)`,
    inbound.p50Ms,
    inbound.textP50Ms,
    'ms',
    '—',
  )
  figure('  the same, p99', inbound.p99Ms, inbound.textP99Ms, 'ms', '—')
  console.log(
    `  ${inbound.sessions} sessions, ${inbound.concurrentFiles} files, 4 per session at once: ${inbound.filesPerSecond} files/s, bytes that differed: ${inbound.mismatches}`,
  )
  console.log(JSON.stringify({ benchmark: 'inbound-media', ...inbound }))
  const large = await benchLargeMediaInChild(quick ? 64 : 256)
  figure(
    `${large.fileMb} MB received document, fetched, checked, stored and read back: peak buffers vs its size`,
    large.peakArrayBuffersMb,
    large.fileMb,
    'MB',
    '≪ 1× (streamed)',
  )
  console.log(
    `  in ${large.seconds} s (${large.mbPerSecond} MB/s), at most ${large.peakArrayBuffersMb} MB of buffers and ${large.peakHeapMb} MB of heap at once, bytes checked against content.media.sha256: ${large.checked}`,
  )
  console.log(JSON.stringify({ benchmark: 'large-media', ...large }))
}
if (only.has('history')) {
  const sessions = quick ? 2 : 10
  const perChat = quick ? 100 : 1_000
  console.log(
    `\nHistory at linking: ${sessions} sessions at once, each 20 chats × ${perChat} messages over 30 days (gateway and simulator in their own processes)`,
  )
  const imported = await measureHistoryImport({
    sessions,
    chats: 20,
    messagesPerChat: perChat,
    days: 30,
    idleLoadSeconds: quick ? 5 : 10,
  })
  figure(
    'history import: RSS peak MB vs the gateway before linking',
    imported.peakRssMb,
    imported.baselineRssMb,
    'MB',
    '< +300 MB',
  )
  figure(
    'history import: msg/s first scan → last history.synced vs target',
    imported.messagesPerSecond,
    5_000,
    'msg/s',
    '≥ 5,000 msg/s',
  )
  figure(
    'history import: GET /v1/session/all p99 ms at 50 req/s vs idle',
    imported.during.p99Ms,
    imported.idle.p99Ms,
    'ms',
    '< 50 ms',
  )
  console.log(
    `  stored ${imported.stored} of ${imported.expected} messages sent (skipped ${imported.skipped}) in ${imported.chunks} chunks (${imported.incompleteChunks} incomplete) in ${imported.seconds.toFixed(1)} s; RSS +${imported.rssGrowthMb.toFixed(0)} MB; API p50 ${imported.during.p50Ms} ms, max ${imported.during.maxMs} ms, ${imported.during.failures} failed of ${imported.during.requests}`,
  )
  console.log(
    `  API p99 while sessions linked (first ${imported.linkedSeconds.toFixed(1)} s: 812 pre-keys each) ${imported.whileLinking.p99Ms} ms of ${imported.whileLinking.requests}; after, importing only: ${imported.afterLinked.p99Ms} ms of ${imported.afterLinked.requests}`,
  )
  console.log(JSON.stringify({ benchmark: 'history-import', ...imported }))
  if (imported.stored !== imported.expected)
    console.log(`  MISMATCH: ${imported.stored} messages stored, the phones sent ${imported.expected}`)
  const bomb = await measureHistoryBomb(quick ? 256 * 1024 ** 2 : 1024 ** 3)
  const mib = bomb.inflatedBytes / 1024 ** 2
  figure(
    `history file inflating to ${mib} MiB: RSS peak MB vs before it`,
    bomb.peakRssMb,
    bomb.baselineRssMb,
    'MB',
    '≪ +300 MB',
  )
  figure(
    '  the same: GET /v1/session/all p99 ms while it is read vs before',
    bomb.during.p99Ms,
    bomb.idle.p99Ms,
    'ms',
    '< 50 ms',
  )
  console.log(
    `  reported ${bomb.state} (${bomb.stateReason}) ${bomb.reportedMs} ms after it was kept; RSS +${bomb.rssGrowthMb.toFixed(0)} MB; ${bomb.during.failures} failed of ${bomb.during.requests} requests meanwhile; after it: ${bomb.answersAfter}, session connected: ${bomb.stillConnected}`,
  )
  console.log(JSON.stringify({ benchmark: 'history-bomb', ...bomb }))
}
process.exit(0)
