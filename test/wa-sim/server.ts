// The websocket endpoint (ws://127.0.0.1:PORT/ws/chat): accepts connections, logs clients in or
// starts registration, and routes their stanzas.
import type { BinaryNode, proto } from '@whiskeysockets/baileys'
import { Curve } from '@whiskeysockets/baileys'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import { makeNoiseCertChain } from './certificates'
import { recordChatState, recordClientReceipt, recordPresence } from './account-signals'
import { handleClientMessage } from './client-messages'
import { Connection } from './connection'
import { onPresenceSubscribe, onPresenceUnsubscribe } from './contact-presence'
import { handleIq } from './iq-handlers/index'
import { onMediaRetryReceipt } from './media-retry'
import { unixNow } from './node-utils'
import { onClientReceipt, relayOfflineQueue } from './offline-queue'
import { historyRequestOf, offerQrRefs } from './pairing'
import type { ClientVersion, SimState } from './state'
import { missingAttributes } from './strict-checks'

export class ChatServer {
  private readonly serverStatic = Curve.generateKeyPair()
  /** Like WhatsApp's servers, one long-lived static key and one certificate chain for it, served to every client */
  private certChain: Uint8Array | undefined

  private constructor(
    private readonly state: SimState,
    private readonly wss: WebSocketServer,
  ) {
    wss.on('connection', (ws) => {
      const connection = new Connection(
        ws,
        this.serverStatic,
        (pub) => (this.certChain ??= makeNoiseCertChain(state.rootKey, pub)),
        this.hooks,
        state.logger,
      )
      state.connections.add(connection)
      state.logins.inProgress++
      state.logins.peak = Math.max(state.logins.peak, state.logins.inProgress)
    })
  }

  static async start(state: SimState, port = 0): Promise<ChatServer> {
    const wss = new WebSocketServer({ port, host: '127.0.0.1' })
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve)
      wss.once('error', reject)
    })
    return new ChatServer(state, wss)
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws/chat`
  }

  async stop(): Promise<void> {
    for (const connection of this.state.connections) connection.drop()
    await new Promise<void>((resolve) => this.wss.close(() => resolve()))
  }

  private readonly hooks = {
    onHandshake: (connection: Connection, payload: proto.ClientPayload) => {
      if (this.refuseOutdated(connection, payload)) return this.settleLogin(connection, false)
      this.settleLogin(connection, !payload.devicePairingData)
      if (payload.devicePairingData) offerQrRefs(this.state, connection, historyRequestOf(payload))
      else this.login(connection, payload)
    },
    onNode: (connection: Connection, node: BinaryNode) => this.onNode(connection, node),
    onClose: (connection: Connection) => {
      this.settleLogin(connection, false)
      this.state.connections.delete(connection)
      if (connection.account?.connection === connection) connection.account.connection = undefined
    },
  }

  private settleLogin(connection: Connection, login: boolean): void {
    if (connection.loginSettled) return
    connection.loginSettled = true
    this.state.logins.inProgress--
    if (login) this.state.logins.completed++
  }

  /**
   * WhatsApp answers a client whose announced version it no longer accepts with
   * <failure reason="405" location="…"/> right after the handshake, for logins and registrations
   * alike (Baileys: "Connection Failure", statusCode 405); the client has to come back newer.
   */
  private refuseOutdated(connection: Connection, payload: proto.ClientPayload): boolean {
    const app = payload.userAgent?.appVersion
    const announced: ClientVersion = [app?.primary ?? 0, app?.secondary ?? 0, app?.tertiary ?? 0]
    const minimum = this.state.options.minimumVersion
    const index = announced.findIndex((part, i) => part !== minimum[i])
    if (index === -1 || announced[index]! > minimum[index]!) return false
    const version = announced.join('.')
    this.state.outdatedRefusals.push({ version, ...(payload.username ? { username: String(payload.username) } : {}) })
    this.state.logger.info(`client version ${version} refused as outdated (minimum ${minimum.join('.')})`)
    connection.sendNode({ tag: 'failure', attrs: { reason: '405', location: 'sim' } })
    return true
  }

  /** Known device + matching noise key + still linked + no refuse-login fault, or <failure 401>. */
  private login(connection: Connection, payload: proto.ClientPayload): void {
    const phone = String(payload.username ?? '')
    const account = this.state.accounts.get(phone)
    if (account) account.stats.connections++
    if (account?.unreachable) {
      // As if the network were down: the client sees a closed connection (428), not a refusal
      connection.drop()
      return
    }
    const accepted =
      account?.linked &&
      !account.refuseLogin &&
      account.deviceId === (payload.device ?? 0) &&
      connection.clientStatic.equals(Buffer.from(account.noisePublic))
    if (!accepted) {
      this.state.logger.info(`login refused for ${phone}:${payload.device ?? 0}`)
      connection.sendNode({ tag: 'failure', attrs: { reason: '401', location: 'sim' } })
      return
    }
    const previous = this.state.liveConnectionOf(account)
    if (previous && previous !== connection) {
      // One connection per device: the newer login replaces the older, as on WhatsApp
      previous.sendNode({ tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] })
      previous.close()
    }
    account.connection = connection
    connection.account = account
    account.stats.logins++
    // The LID of this device (with its device id), as pair-success gave it: Baileys compares it
    // with device jids to skip its own device when it fans a message out to LID devices.
    connection.sendNode({
      tag: 'success',
      attrs: {
        t: unixNow(),
        lid: `${account.lid}:${account.deviceId}@lid`,
        props: '1',
        abprops: '1',
        location: 'sim',
        creation: '1700000000',
      },
    })
    // The offline queue, then its end marker (without it Baileys keeps buffering events as if
    // offline messages were still pending)
    setTimeout(() => {
      if (connection.closed) return
      const count = relayOfflineQueue(connection, account)
      connection.sendNode({
        tag: 'ib',
        attrs: { from: 's.whatsapp.net' },
        content: [{ tag: 'offline', attrs: { count: String(count) } }],
      })
    }, 20)
  }

  private async onNode(connection: Connection, node: BinaryNode): Promise<void> {
    const missing = missingAttributes(node)
    if (missing.length) {
      this.state.violations.record(
        connection.account?.phone ?? '',
        'malformed-node',
        `<${node.tag}> without ${missing.join(', ')}`,
      )
      return
    }
    switch (node.tag) {
      case 'iq':
        return handleIq(this.state, connection, node)
      case 'message':
        return handleClientMessage(this.state, connection, node)
      case 'receipt':
        connection.sendNode({
          tag: 'ack',
          attrs: {
            class: 'receipt',
            id: node.attrs.id ?? '',
            from: node.attrs.to ?? '',
            ...(node.attrs.type ? { type: node.attrs.type } : {}),
          },
        })
        if (!connection.account) return
        // A media retry goes to the account's own phone; it says nothing about delivery or reading
        if (node.attrs.type === 'server-error')
          return onMediaRetryReceipt(this.state, connection, connection.account, node)
        recordClientReceipt(this.state, connection.account, node)
        return onClientReceipt(connection, connection.account, node)
      case 'presence':
        if (!connection.account) return
        if (!recordPresence(this.state, connection.account, node)) return
        if (node.attrs.type === 'subscribe')
          onPresenceSubscribe(this.state, connection, connection.account, node.attrs.to ?? '')
        if (node.attrs.type === 'unsubscribe') onPresenceUnsubscribe(connection, node.attrs.to ?? '')
        return
      case 'chatstate':
        if (connection.account) recordChatState(this.state, connection.account, node)
        return
      case 'call':
        return this.onCall(connection, node)
      case 'ack':
        // A message the device acks instead of answering with a receipt (a nack such as 487: it
        // will never decrypt it) is done with, as far as the server's queue goes.
        if (node.attrs.class === 'message' && connection.account) {
          connection.account.unacknowledged.delete(node.attrs.id ?? '')
          // A history chunk the device could not process (Baileys nacks what throws while handled)
          const history = connection.account.historySent.find((record) => record.id === node.attrs.id)
          if (history && node.attrs.error) history.nack = node.attrs.error
        }
        return
      default:
        return // nothing to answer
    }
  }

  /** The client answers an offered call (reject/accept/...): record it and ack. */
  private onCall(connection: Connection, node: BinaryNode): void {
    const action = Array.isArray(node.content) ? node.content[0] : undefined
    const callId = action?.attrs['call-id']
    const record = connection.account?.calls.find((call) => call.callId === callId)
    if (record && action) record.response = action.tag
    if (!record && action?.tag === 'reject' && connection.account)
      this.state.violations.record(
        connection.account.phone,
        'unknown-call',
        `reject of a call never offered (${callId})`,
      )
    if (record && action?.tag === 'reject' && action.attrs['call-creator'] !== `${record.from}@s.whatsapp.net`)
      this.state.violations.record(
        connection.account!.phone,
        'malformed-node',
        `reject of ${callId} naming ${action.attrs['call-creator']} as its caller`,
      )
    connection.sendNode({
      tag: 'ack',
      attrs: {
        class: 'call',
        id: node.attrs.id ?? '',
        from: node.attrs.to ?? '',
        ...(action ? { type: action.tag } : {}),
      },
    })
  }
}
