// JSON-over-HTTP control API on loopback, for the standalone simulator (gateway dev mode, scripts).
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { proto } from '@whiskeysockets/baileys'
import type { ReceiptType } from './contact-actions'
import { SimulatorError } from './errors'
import { isFaultKind } from './faults'
import type { ParticipantAction } from './group-ops'
import type { WhatsAppSimulator } from './simulator'
import { addonRoutes } from './control-addons'
import { benchRoutes } from './control-bench'
import { historyRoutes } from './control-history'
import { outgoingContent, profileUpdate, sendOptions, text } from './control-fields'

export type Handler = (params: string[], body: Record<string, unknown>) => unknown | Promise<unknown>

/** A non-JSON answer (media bytes), sent as is with its content type. */
class RawReply {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}

/** Devices minted per request (about 6 KB of JSON each). */
const MINT_BATCH_MAX = 1_000
const RECEIPT_TYPES = ['delivered', 'read', 'played']
const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote']

const routes = (sim: WhatsAppSimulator): [string, RegExp, Handler][] => [
  ['GET', /^\/config$/, () => sim.config],
  [
    'POST',
    /^\/scan$/,
    (_, body) =>
      sim.scan(text(body, 'qr')!, text(body, 'phone', false), { businessName: text(body, 'businessName', false) }),
  ],
  ['POST', /^\/pairing-code$/, (_, body) => sim.enterPairingCode(text(body, 'phone')!, text(body, 'code')!)],
  ['GET', /^\/pairings$/, () => sim.pendingPairings()],
  [
    'POST',
    /^\/accounts\/mint$/,
    (_, body) => {
      const count = body.count
      if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MINT_BATCH_MAX)
        throw new SimulatorError('invalid_request', `"count" must be an integer from 1 to ${MINT_BATCH_MAX}`)
      return sim.mintLinkedDevices(count as number)
    },
  ],
  [
    'POST',
    /^\/contacts$/,
    (_, body) => sim.addContact(text(body, 'phone')!, { answerAs: text(body, 'answerAs', false) }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/messages$/,
    async ([phone], body) => ({ messageId: await sim.contact(phone!).send(outgoingContent(body), sendOptions(body)) }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/edits$/,
    async ([phone], body) => ({
      messageId: await sim.contact(phone!).edit(text(body, 'messageId')!, text(body, 'text')!, sendOptions(body)),
    }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/revokes$/,
    async ([phone], body) => ({
      messageId: await sim.contact(phone!).revoke(text(body, 'messageId')!, sendOptions(body)),
    }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/expirations$/,
    ([phone], body) => {
      const status = body.status ?? 410
      if (status !== 404 && status !== 410) throw new SimulatorError('invalid_request', '"status" must be 404 or 410')
      sim.contact(phone!).expireMedia(text(body, 'messageId')!, { status, reupload: body.reupload !== false })
      return { ok: true }
    },
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/receipts$/,
    ([phone], body) => {
      const type = text(body, 'type')!
      if (!RECEIPT_TYPES.includes(type))
        throw new SimulatorError('invalid_request', `"type" must be one of ${RECEIPT_TYPES.join(', ')}`)
      sim.contact(phone!).receipt(text(body, 'messageId')!, type as ReceiptType, text(body, 'to', false))
      return { ok: true }
    },
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/calls$/,
    ([phone], body) => ({ callId: sim.contact(phone!).call(text(body, 'to', false)) }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/calls\/([\w-]+)\/end$/,
    ([phone, callId], body) => sim.contact(phone!).hangUp(callId!, text(body, 'to', false)),
  ],
  [
    'PUT',
    /^\/contacts\/(\d+)\/presence$/,
    ([phone], body) => {
      const state = text(body, 'state')
      const lastSeen = text(body, 'lastSeen', false)
      if (state !== 'available' && state !== 'unavailable')
        throw new SimulatorError('invalid_request', '"state" must be "available" or "unavailable"')
      if (lastSeen !== undefined && lastSeen !== 'shared' && lastSeen !== 'hidden')
        throw new SimulatorError('invalid_request', '"lastSeen" must be "shared" or "hidden"')
      sim.contact(phone!).setPresence(state, lastSeen ? { lastSeen } : {})
    },
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/chatstates$/,
    ([phone], body) => {
      const state = text(body, 'state')
      if (state !== 'composing' && state !== 'recording' && state !== 'paused')
        throw new SimulatorError('invalid_request', '"state" must be "composing", "recording" or "paused"')
      return { delivered: sim.contact(phone!).chatState(state, text(body, 'to', false)) }
    },
  ],
  [
    'GET',
    /^\/contacts\/(\d+)\/inbox$/,
    ([phone]) =>
      sim
        .contact(phone!)
        .inbox()
        .map((entry) => ({
          ...entry,
          message: proto.Message.toObject(proto.Message.fromObject(entry.message), { bytes: String, longs: Number }),
        })),
  ],
  [
    'GET',
    /^\/contacts\/(\d+)\/media\/([^/]+)$/,
    async ([phone, messageId]) => {
      const opened = await sim.contact(phone!).media(decodeURIComponent(messageId!))
      return new RawReply(opened.mimetype, opened.bytes)
    },
  ],
  [
    'GET',
    /^\/accounts$/,
    () =>
      sim.accounts().map((a) => ({
        phone: a.phone,
        lid: a.lid,
        deviceId: a.deviceId,
        linked: a.linked,
        online: a.online,
        calls: a.calls(),
      })),
  ],
  ['GET', /^\/accounts\/(\d+)\/receipts$/, ([phone]) => sim.account(phone!).receipts()],
  ['GET', /^\/accounts\/(\d+)\/presence$/, ([phone]) => sim.account(phone!).presence()],
  ['GET', /^\/accounts\/(\d+)\/privacy$/, ([phone]) => sim.account(phone!).privacy()],
  [
    'PUT',
    /^\/accounts\/(\d+)\/privacy$/,
    ([phone], body) => {
      const setting = text(body, 'readReceipts')
      if (setting !== 'all' && setting !== 'none')
        throw new SimulatorError('invalid_request', '"readReceipts" must be "all" or "none"')
      sim.account(phone!).setReadReceipts(setting)
      return { ok: true }
    },
  ],
  [
    'POST',
    /^\/accounts\/(\d+)\/faults$/,
    ([phone], body) => {
      const kind = text(body, 'kind')!
      if (!isFaultKind(kind)) throw new SimulatorError('invalid_request', `unknown fault kind "${kind}"`)
      sim.account(phone!).fault(kind)
      return { ok: true }
    },
  ],
  [
    'DELETE',
    /^\/accounts\/(\d+)\/faults$/,
    ([phone]) => {
      sim.account(phone!).clearFaults()
      return { ok: true }
    },
  ],
  [
    'POST',
    /^\/groups$/,
    (_, body) => {
      const participants = body.participants
      if (!Array.isArray(participants) || !participants.every((p) => typeof p === 'string'))
        throw new SimulatorError('invalid_request', '"participants" must be an array of phone numbers')
      return sim.createGroup(text(body, 'subject')!, participants as string[], text(body, 'owner', false))
    },
  ],
  ['POST', /^\/groups\/join$/, (_, body) => ({ jid: sim.joinGroup(text(body, 'by')!, text(body, 'code')!) })],
  ['GET', /^\/groups\/([\d-]+@g\.us)$/, ([jid]) => sim.group(jid!).info()],
  [
    'POST',
    /^\/groups\/([\d-]+@g\.us)\/subject$/,
    ([jid], body) => sim.group(jid!).by(text(body, 'by')!).setSubject(text(body, 'subject')!),
  ],
  [
    'POST',
    /^\/groups\/([\d-]+@g\.us)\/description$/,
    ([jid], body) => {
      const description = body.description
      if (description !== null && typeof description !== 'string')
        throw new SimulatorError('invalid_request', '"description" must be a string, or null to delete it')
      sim.group(jid!).by(text(body, 'by')!).setDescription(description)
    },
  ],
  [
    'POST',
    /^\/groups\/([\d-]+@g\.us)\/settings$/,
    ([jid], body) => {
      const flag = (name: string) => {
        const value = body[name]
        if (value === undefined || typeof value === 'boolean') return value
        throw new SimulatorError('invalid_request', `"${name}" must be a boolean`)
      }
      sim
        .group(jid!)
        .by(text(body, 'by')!)
        .setSettings({ announce: flag('announce'), restrict: flag('restrict') })
    },
  ],
  [
    'POST',
    /^\/groups\/([\d-]+@g\.us)\/participants$/,
    ([jid], body) => {
      const action = text(body, 'action')!
      if (!PARTICIPANT_ACTIONS.includes(action))
        throw new SimulatorError('invalid_request', `"action" must be one of ${PARTICIPANT_ACTIONS.join(', ')}`)
      const phones = body.phones
      if (!Array.isArray(phones) || !phones.every((p) => typeof p === 'string'))
        throw new SimulatorError('invalid_request', '"phones" must be an array of phone numbers')
      return sim
        .group(jid!)
        .by(text(body, 'by')!)
        .participants(action as ParticipantAction, phones as string[])
    },
  ],
  ['POST', /^\/groups\/([\d-]+@g\.us)\/leave$/, ([jid], body) => sim.group(jid!).by(text(body, 'by')!).leave()],
  [
    'POST',
    /^\/users\/(\d+)\/privacy$/,
    ([phone], body) => {
      const groupAdd = text(body, 'groupAdd')!
      if (groupAdd !== 'all' && groupAdd !== 'none')
        throw new SimulatorError('invalid_request', '"groupAdd" must be "all" or "none"')
      sim.setGroupAddPrivacy(phone!, groupAdd)
    },
  ],
  [
    'PUT',
    /^\/users\/(\d+)\/profile$/,
    ([phone], body) => {
      sim.setProfile(phone!, profileUpdate(body))
      return { ok: true }
    },
  ],
  [
    'GET',
    /^\/users\/(\d+)\/profile$/,
    ([phone]) => {
      const { picture, ...profile } = sim.profile(phone!)
      return { ...profile, ...(picture ? { picture: { id: picture.id, url: picture.url, side: picture.side } } : {}) }
    },
  ],
  ['GET', /^\/accounts\/(\d+)\/blocklist$/, ([phone]) => sim.account(phone!).blocked()],
  ['GET', /^\/minimum-version$/, () => ({ version: sim.minimumVersion.join('.') })],
  [
    'PUT',
    /^\/minimum-version$/,
    (_, body) => {
      const version = text(body, 'version')!
      if (!/^\d+\.\d+\.\d+$/.test(version))
        throw new SimulatorError('invalid_request', '"version" must look like 2.3000.1')
      sim.setMinimumVersion(version.split('.').map(Number) as [number, number, number])
      return { version }
    },
  ],
  ['GET', /^\/outdated-refusals$/, () => sim.outdatedRefusals()],
  ['GET', /^\/stats$/, () => sim.stats()],
  ['GET', /^\/login-stats$/, () => sim.loginStats()],
  ['POST', /^\/login-stats\/reset$/, () => sim.loginStats({ reset: true })],
  ['GET', /^\/violations$/, () => sim.violations()],
  ...addonRoutes(sim),
  ...historyRoutes(sim),
  ...benchRoutes(sim),
]

const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  if (chunks.length === 0) return {}
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf-8'))
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // reported below
  }
  throw new SimulatorError('invalid_json', 'the body must be a JSON object')
}

const reply = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

export class ControlApi {
  private constructor(private readonly server: Server) {}

  static async start(sim: WhatsAppSimulator, port = 0): Promise<ControlApi> {
    const table = routes(sim)
    const server = createServer(async (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/'
      const matching = table.filter(([, pattern]) => pattern.test(path))
      const route = matching.find(([method]) => method === req.method)
      if (!route) {
        reply(res, matching.length ? 405 : 404, {
          error: matching.length ? 'method_not_allowed' : 'not_found',
          message: `${req.method} ${path}`,
        })
        return
      }
      try {
        const params = route[1].exec(path)?.slice(1) ?? []
        const answer = await route[2](params, await readJson(req))
        if (answer instanceof RawReply) {
          res.writeHead(200, { 'content-type': answer.contentType, 'content-length': answer.bytes.length })
          res.end(answer.bytes)
          return
        }
        reply(res, 200, answer ?? { ok: true })
      } catch (error) {
        const known = error instanceof SimulatorError
        reply(res, known ? error.status : 500, {
          error: known ? error.code : 'internal_error',
          message: (error as Error).message,
        })
      }
    })
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    return new ControlApi(server)
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
