// What the history tests share: Baileys configured to download and decode every history chunk
// from the simulator's media host, and what it emitted, merged.
import type { Chat, Contact, UserFacingSocketConfig, WAMessage, WASocket } from '@whiskeysockets/baileys'
import { Writable } from 'node:stream'
import P from 'pino'
import { Agent, type Dispatcher } from 'undici'
import { expect } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket, type AuthStore } from './harness'

/** What Baileys' own history decoder emitted, every `messaging-history.set` merged. */
export interface Received {
  chats: Map<string, Chat>
  contacts: Map<string, Contact>
  messages: Map<string, WAMessage>
}

export const received = (): Received => ({ chats: new Map(), contacts: new Map(), messages: new Map() })

const collect = (sock: WASocket, into: Received): void => {
  sock.ev.on('messaging-history.set', (set) => {
    for (const chat of set.chats) into.chats.set(chat.id ?? '', { ...into.chats.get(chat.id ?? ''), ...chat })
    for (const contact of set.contacts)
      into.contacts.set(contact.id, { ...into.contacts.get(contact.id), ...contact } as Contact)
    for (const message of set.messages) into.messages.set(message.key.id ?? '', message)
  })
}

/** Baileys' log lines at warn and above, to see what it refused and why. */
export const capturingLogger = () => {
  const lines: string[] = []
  const logger = P(
    { level: 'warn', serializers: { error: P.stdSerializers.err } },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    }),
  )
  return { logger, lines }
}

/**
 * A download that never pauses its socket: Baileys abandons a bomb's download at 64 MiB, and Node
 * 20's fetch then stops reading (pauses) without aborting the request on this newer undici, which
 * keeps it open until the agent is torn down (an uncaught "terminated" then). Reading on lets the
 * small file's request complete; fetch drops what it no longer wants.
 */
const readToTheEnd = (handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler =>
  new Proxy(handler, {
    get(target, property) {
      const value = Reflect.get(target, property)
      if (typeof value !== 'function') return value
      if (property !== 'onResponseData') return value.bind(target)
      return (controller: Dispatcher.DispatchController, chunk: Buffer) => {
        const unpausable = new Proxy(controller, {
          get: (c, key) => (key === 'pause' ? () => {} : Reflect.get(c, key)),
        })
        return value.call(target, unpausable, chunk)
      }
    },
  })

/** A simulator and the Baileys sockets linked to it for history tests. */
export class HistoryRig {
  /**
   * History files are named by direct path only, so Baileys fetches them from mmg.whatsapp.net:
   * this dispatcher sends that host (and only it, besides the media host itself) to the
   * simulator's media host, trusting its CA. Nothing leaves loopback.
   */
  readonly dispatcher: Dispatcher
  private readonly sockets: WASocket[] = []

  private constructor(
    readonly sim: WhatsAppSimulator,
    private readonly agent: Agent,
  ) {
    const mediaOrigin = `https://${sim.config.mediaHost}`
    this.dispatcher = agent.compose((dispatch) => (options, handler) => {
      const origin = String(options.origin)
      if (origin !== mediaOrigin && origin !== 'https://mmg.whatsapp.net')
        throw new Error(`the test fetches nothing but the media host, not ${origin}`)
      return dispatch({ ...options, origin: mediaOrigin }, readToTheEnd(handler))
    })
  }

  static async start(): Promise<HistoryRig> {
    const sim = await WhatsAppSimulator.start()
    return new HistoryRig(sim, new Agent({ connect: { ca: sim.config.mediaCaPem } }))
  }

  async stop(): Promise<void> {
    for (const sock of this.sockets) closeSocket(sock)
    await this.agent.close()
    await this.sim.stop()
  }

  /** Full sync when `days` is given (0: without a limit); Baileys downloads and decodes every chunk. */
  historyConfig(days?: number): Partial<UserFacingSocketConfig> {
    return {
      syncFullHistory: days !== undefined,
      // a field the project's Baileys patch adds to the socket config
      ...(days ? ({ fullSyncDaysLimit: days } as object) : {}),
      shouldSyncHistoryMessage: () => true,
      options: { dispatcher: this.dispatcher } as never,
    }
  }

  /** Logs in with stored credentials, listening from the socket's first event. */
  async login(
    auth: AuthStore,
    extra: Partial<UserFacingSocketConfig>,
    into: Received,
    more?: (sock: WASocket) => void,
  ): Promise<WASocket> {
    const outcome = await openSocket(this.sim, auth, extra, undefined, (sock) => {
      collect(sock, into)
      more?.(sock)
    })
    expect(outcome.open).toBe(true)
    this.sockets.push(outcome.sock)
    return outcome.sock
  }

  /** QR pairing with the history settings, then the login that receives the history. */
  async link(
    phone: string,
    extra: Partial<UserFacingSocketConfig>,
    into: Received,
    more?: (sock: WASocket) => void,
  ): Promise<{ sock: WASocket; auth: AuthStore }> {
    const auth = memoryAuth()
    let scanned = false
    const first = await openSocket(this.sim, auth, extra, (qr) => {
      if (!scanned) this.sim.scan(qr, phone)
      scanned = true
    })
    expect(first.open).toBe(false)
    return { sock: await this.login(auth, extra, into, more), auth }
  }

  /** Pairing code entered on the phone, then the login that receives the history. */
  async linkByCode(phone: string, extra: Partial<UserFacingSocketConfig>, into: Received): Promise<WASocket> {
    const auth = memoryAuth()
    let code: Promise<string> | undefined
    const first = openSocket(this.sim, auth, extra, (_qr, sock) => {
      code ??= sock.requestPairingCode(phone)
    })
    await expect.poll(() => code, { timeout: 5000 }).toBeDefined()
    await this.sim.enterPairingCode(phone, await code!)
    expect((await first).open).toBe(false)
    return this.login(auth, extra, into)
  }
}
