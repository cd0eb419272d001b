// JSON-over-HTTP control API on loopback, for the standalone simulator (gateway dev mode, scripts).
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { proto } from '@whiskeysockets/baileys'
import type { OutgoingContent, ReceiptType } from './contact-actions'
import type { SharedContact } from './contact-card'
import type { MediaContent } from './contact-media'
import { SimulatorError } from './errors'
import { isFaultKind } from './faults'
import { fixture, isFixtureName } from './fixtures'
import type { ParticipantAction } from './group-ops'
import type { BusinessProfile, ProfileUpdate, Visibility } from './profiles'
import type { WhatsAppSimulator } from './simulator'
import { addonRoutes } from './control-addons'
import { sendOptions, text } from './control-fields'

export type Handler = (params: string[], body: Record<string, unknown>) => unknown | Promise<unknown>

/** A non-JSON answer (media bytes), sent as is with its content type. */
class RawReply {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}

const RECEIPT_TYPES = ['delivered', 'read', 'played']
const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote']

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const

const number = (body: Record<string, unknown>, field: string): number | undefined => {
  const value = body[field]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new SimulatorError('invalid_request', `"${field}" must be a non-negative number`)
  return value
}

/** `{<kind>: {data: base64 | fixture: name | size: random bytes, mimetype?, caption?, fileName?, seconds?, width?, height?, ptt?, gifPlayback?, animated?}}` */
const mediaContent = (kind: (typeof MEDIA_KINDS)[number], spec: unknown): MediaContent => {
  if (typeof spec !== 'object' || spec === null)
    throw new SimulatorError('invalid_request', `"${kind}" must be an object`)
  const fields = spec as Record<string, unknown>
  const named = text(fields, 'fixture', false)
  if (named !== undefined && !isFixtureName(named))
    throw new SimulatorError('invalid_request', `unknown fixture "${named}"`)
  const base = named ? fixture(named) : undefined
  // `size`: that many random bytes made here (a large file without sending it over JSON)
  const size = number(fields, 'size')
  if (size !== undefined && size > 2 ** 31 - 1)
    throw new SimulatorError('invalid_request', '"size" is at most 2 GiB - 1')
  const data = text(fields, 'data', !base && size === undefined)
  const bytes = data !== undefined ? Buffer.from(data, 'base64') : size !== undefined ? randomBytes(size) : base!.bytes
  const known = (base ?? {}) as { mimetype?: string; width?: number; height?: number; seconds?: number }
  const common = {
    mimetype: text(fields, 'mimetype', false) ?? known.mimetype,
    caption: text(fields, 'caption', false),
    seconds: number(fields, 'seconds') ?? known.seconds,
    width: number(fields, 'width') ?? known.width,
    height: number(fields, 'height') ?? known.height,
  }
  switch (kind) {
    case 'image':
      return { image: bytes, ...common, mimetype: common.mimetype ?? 'image/jpeg' }
    case 'video':
      return { video: bytes, ...common, gifPlayback: fields.gifPlayback === true }
    case 'audio':
      return { audio: bytes, mimetype: common.mimetype, seconds: common.seconds, ptt: fields.ptt === true }
    case 'document':
      return {
        document: bytes,
        mimetype: common.mimetype,
        caption: common.caption,
        fileName: text(fields, 'fileName')!,
      }
    case 'sticker':
      return { sticker: bytes, ...common, animated: fields.animated === true }
  }
}

const sharedContacts = (value: unknown): SharedContact[] => {
  if (!Array.isArray(value) || value.length === 0)
    throw new SimulatorError('invalid_request', '"contacts" must be a non-empty array')
  return value.map((entry) => {
    if (typeof entry !== 'object' || entry === null)
      throw new SimulatorError('invalid_request', 'each contact must be {name, phones?, organization?, vcard?}')
    const fields = entry as Record<string, unknown>
    const phones = fields.phones
    if (phones !== undefined && !(Array.isArray(phones) && phones.every((p) => typeof p === 'string')))
      throw new SimulatorError('invalid_request', '"phones" must be an array of strings')
    return {
      name: text(fields, 'name')!,
      phones: phones as string[] | undefined,
      organization: text(fields, 'organization', false),
      vcard: typeof fields.vcard === 'string' ? fields.vcard : undefined,
    }
  })
}

/** `{text, quoteId?}`, `{location: {…}}`, `{image|video|audio|document|sticker: {…}}` or `{contacts: […]}` */
const outgoingContent = (body: Record<string, unknown>): OutgoingContent => {
  const kind = MEDIA_KINDS.find((k) => body[k] !== undefined)
  if (kind) return mediaContent(kind, body[kind])
  if (body.contacts !== undefined) return { contacts: sharedContacts(body.contacts) }
  const location = body.location as Record<string, unknown> | undefined
  if (location !== undefined) {
    if (
      typeof location !== 'object' ||
      location === null ||
      typeof location.latitude !== 'number' ||
      typeof location.longitude !== 'number'
    ) {
      throw new SimulatorError('invalid_request', '"location" must be {latitude, longitude} numbers')
    }
    return {
      location: {
        latitude: location.latitude,
        longitude: location.longitude,
        name: text(location, 'name', false),
        address: text(location, 'address', false),
      },
    }
  }
  return { text: text(body, 'text')!, quoteId: text(body, 'quoteId', false) }
}

const VISIBILITY = ['all', 'none']

/** `{name?, about?, picture? (base64 JPEG | null), business? (| null), privacy?: {picture?, about?}}` */
const profileUpdate = (body: Record<string, unknown>): ProfileUpdate => {
  const optional = (field: string, nullable: boolean): string | null | undefined => {
    const value = body[field]
    if (value === undefined || typeof value === 'string' || (nullable && value === null)) return value
    throw new SimulatorError('invalid_request', `"${field}" must be a string${nullable ? ' or null' : ''}`)
  }
  const picture = optional('picture', true)
  const privacy = body.privacy as Record<string, unknown> | undefined
  for (const value of Object.values(privacy ?? {}))
    if (!VISIBILITY.includes(value as string))
      throw new SimulatorError('invalid_request', '"privacy" values must be "all" or "none"')
  const business = body.business
  if (business !== undefined && business !== null && (typeof business !== 'object' || Array.isArray(business)))
    throw new SimulatorError('invalid_request', '"business" must be an object or null')
  return {
    ...(optional('name', false) !== undefined ? { name: optional('name', false)! } : {}),
    ...(body.about !== undefined ? { about: optional('about', true) ?? null } : {}),
    ...(picture !== undefined ? { picture: picture === null ? null : Buffer.from(picture, 'base64') } : {}),
    ...(business !== undefined ? { business: business as BusinessProfile | null } : {}),
    ...(privacy ? { privacy: privacy as { picture?: Visibility; about?: Visibility } } : {}),
  }
}

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
