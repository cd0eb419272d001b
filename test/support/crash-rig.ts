import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { pollUntil } from './poll'
import { startGatewayProcess, type Spawned } from './process'
import { queryFile } from './sqlite-file'
import { tempDir } from './temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver'

/** The first process's API key, sent on every call (later processes on the file print none). */
export type CrashApi = (path: string, init?: RequestInit) => Promise<Response>

/**
 * What the webhook crash tests share: a simulator, a webhook receiver and gateway processes on
 * one database file (real processes, so SIGKILL runs no shutdown code).
 */
export interface CrashRig {
  databasePath: string
  sim: WhatsAppSimulator
  receiver: WebhookReceiver
  /** Starts a gateway process on the file, retrying webhooks fast; answers its API. */
  start(): Promise<CrashApi>
  /** SIGKILL: nothing of the process's own runs. */
  kill(): Promise<void>
  /** The outbox's events, in sequence order. */
  eventIds(): { id: string; sequence: number }[]
  /**
   * Links the session by its QR as `account`, has `contact` send `count` texts (`backlog 0`, …)
   * and waits until they are in the outbox, then disconnects the session: after a restart it
   * makes no new events, so only the outbox can bring the backlog back.
   */
  backlog(
    api: CrashApi,
    link: { sessionId: string; qrCode: string; account: string; contact: string; count: number },
  ): Promise<void>
  close(): Promise<void>
}

/** `contacts`: the simulator's contacts, there before any gateway starts. */
export async function startCrashRig(contacts: string[]): Promise<CrashRig> {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  const sim = await WhatsAppSimulator.start()
  const control = await ControlApi.start(sim)
  for (const contact of contacts) sim.addContact(contact)
  const receiver = await startWebhookReceiver()
  let gateway: Spawned | undefined
  let key = ''
  return {
    databasePath,
    sim,
    receiver,
    async start() {
      const started = await startGatewayProcess(databasePath, control.url, {
        WEBHOOK_ALLOW_HTTP: 'true',
        ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_RETRY_BASE_MS: '50',
        WEBHOOK_RETRY_MAX_MS: '200',
      })
      gateway = started.process
      key ||= started.firstKey ?? ''
      return (path, init = {}) =>
        fetch(`${started.url}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        })
    },
    async kill() {
      gateway?.child.kill('SIGKILL')
      await gateway?.stop()
    },
    eventIds: () =>
      queryFile<{ id: string; sequence: number }>(
        databasePath,
        'SELECT id, sequence FROM webhook_events ORDER BY sequence',
      ),
    async backlog(api, { sessionId, qrCode, account, contact, count }) {
      sim.scan(qrCode, account)
      await pollUntil(
        async () => ((await (await api('/v1/session/all')).json()) as { sessions: { status: string }[] }).sessions,
        (sessions) => sessions[0]?.status === 'connected',
        { timeoutMs: 20_000, what: 'the session to connect' },
      )
      for (let i = 0; i < count; i++) await sim.contact(contact).send({ text: `backlog ${i}` }, { to: account })
      await pollUntil(
        () => queryFile(databasePath, "SELECT 1 FROM webhook_events WHERE type = 'message.received'").length,
        (stored) => stored >= count,
        { timeoutMs: 20_000, what: 'the inbound messages in the outbox' },
      )
      const disconnected = await api(`/v1/session/disconnect/${sessionId}`, { method: 'DELETE' })
      if (disconnected.status !== 200) throw new Error(`disconnect answered ${disconnected.status}`)
    },
    async close() {
      await gateway?.stop()
      await receiver.close()
      await control.stop()
      await sim.stop()
      dir.cleanup()
    },
  }
}
