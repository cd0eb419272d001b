// One client websocket: framing, the Noise handshake, then decrypted binary nodes in order.
import { Curve, decodeBinaryNode, encodeBinaryNode, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { WebSocket } from 'ws'
import type { Account, HistoryRequest } from './account'
import type { CurveKeyPair } from './certificates'
import { encodeFrame, FrameReader } from './frames'
import type { Logger } from './logger'
import { ServerNoise } from './noise'

export interface ConnectionHooks {
  /** Handshake done: the client's static key and its login/registration payload */
  onHandshake(connection: Connection, payload: proto.ClientPayload): void
  onNode(connection: Connection, node: BinaryNode): Promise<void>
  onClose(connection: Connection): void
}

type HandshakeState = 'awaiting-hello' | 'awaiting-finish' | 'transport'

let nextConnectionId = 1

export class Connection {
  readonly id = nextConnectionId++
  account: Account | undefined
  clientStatic: Buffer = Buffer.alloc(0)
  /** Set while a fresh client waits for a QR scan or pairing code */
  registration: Registration | undefined
  private state: HandshakeState = 'awaiting-hello'
  private readonly noise = new ServerNoise()
  private readonly frames = new FrameReader()
  private readonly ephemeral = Curve.generateKeyPair()
  /** Nodes are decoded asynchronously; chaining keeps them in arrival order */
  private processing: Promise<void> = Promise.resolve()
  closed = false
  /** Contacts whose presence this connection subscribed to (phone -> the jid it named); a new connection has none */
  readonly presenceSubscriptions = new Map<string, string>()
  /** Set once the login was decided (accepted, refused, or registration offered): see SimState.logins */
  loginSettled = false

  constructor(
    private readonly ws: WebSocket,
    private readonly serverStatic: CurveKeyPair,
    private readonly certChain: (serverStaticPublic: Uint8Array) => Uint8Array,
    private readonly hooks: ConnectionHooks,
    private readonly logger: Logger,
  ) {
    ws.on('message', (data) => this.onData(data as Buffer))
    ws.on('close', () => {
      this.closed = true
      hooks.onClose(this)
    })
    ws.on('error', (error) => logger.debug(`connection ${this.id} socket error: ${error.message}`))
  }

  private onData(data: Buffer): void {
    try {
      for (const frame of this.frames.push(Buffer.from(data))) this.onFrame(frame)
    } catch (error) {
      this.logger.warn(`connection ${this.id}: ${(error as Error).message}`)
      this.drop()
    }
  }

  private onFrame(frame: Buffer): void {
    if (this.state === 'awaiting-hello') {
      this.onClientHello(frame)
      return
    }
    if (this.state === 'awaiting-finish') {
      this.onClientFinish(frame)
      return
    }
    const plaintext = this.noise.decrypt(frame)
    this.processing = this.processing
      .then(async () => {
        const node = await decodeBinaryNode(plaintext)
        this.logger.trace(`<- [${this.id}] ${node.tag} ${JSON.stringify(node.attrs)}`)
        await this.hooks.onNode(this, node)
      })
      .catch((error) => this.logger.warn(`connection ${this.id} node handling failed: ${(error as Error).stack}`))
  }

  private onClientHello(frame: Buffer): void {
    const { clientHello } = proto.HandshakeMessage.decode(frame)
    const clientEphemeral = clientHello?.ephemeral
    if (!clientEphemeral) throw new Error('client hello without ephemeral key')
    this.noise.authenticate(clientEphemeral)
    this.noise.authenticate(this.ephemeral.public)
    this.noise.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral))
    const staticCiphertext = this.noise.encrypt(this.serverStatic.public)
    this.noise.mixIntoKey(Curve.sharedKey(this.serverStatic.private, clientEphemeral))
    const payloadCiphertext = this.noise.encrypt(this.certChain(this.serverStatic.public))
    const serverHello = { ephemeral: this.ephemeral.public, static: staticCiphertext, payload: payloadCiphertext }
    this.ws.send(encodeFrame(proto.HandshakeMessage.encode({ serverHello }).finish()))
    this.state = 'awaiting-finish'
  }

  private onClientFinish(frame: Buffer): void {
    const { clientFinish } = proto.HandshakeMessage.decode(frame)
    if (!clientFinish?.static || !clientFinish.payload) throw new Error('client finish without static key or payload')
    this.clientStatic = this.noise.decrypt(clientFinish.static)
    this.noise.mixIntoKey(Curve.sharedKey(this.ephemeral.private, this.clientStatic))
    const payload = proto.ClientPayload.decode(this.noise.decrypt(clientFinish.payload))
    this.noise.finishHandshake()
    this.state = 'transport'
    this.hooks.onHandshake(this, payload)
  }

  sendNode(node: BinaryNode): void {
    if (this.closed || this.state !== 'transport') return
    // The unresponsive fault: the socket stays open and nothing at all comes back (no answer to
    // iqs or keep-alive pings, no acks, no receipts, no messages, not even a login's <success>)
    if (this.account?.unresponsive) return
    this.logger.trace(`-> [${this.id}] ${node.tag} ${JSON.stringify(node.attrs)}`)
    this.ws.send(encodeFrame(this.noise.encrypt(encodeBinaryNode(node))))
  }

  /** Abrupt close, no stream:error: what a network failure looks like to the client. */
  drop(): void {
    this.ws.terminate()
  }

  close(): void {
    this.ws.close()
  }
}

export interface Registration {
  /** Refs offered in <pair-device>, newest last; each is one QR the client shows */
  qrRefs: string[]
  pairingCode?: PairingCodeRequest
  /** Created at pair-success, confirmed when the client answers with pair-device-sign */
  pendingAccount?: Account
  pairSuccessId?: string
  /** What the companion asked of history at registration (its DeviceProps), kept for the account */
  history: HistoryRequest
}

export interface PairingCodeRequest {
  phone: string
  /** salt(32) | iv(16) | AES-CTR(companion ephemeral public key) under PBKDF2(code) */
  wrappedCompanionEphemeral: Buffer
  /** The ref the phone sends in the notification; the client echoes it in companion_finish */
  ref: string
  primaryEphemeral?: CurveKeyPair
  primaryIdentity?: CurveKeyPair
  companionEphemeralPublic?: Buffer
  /** Settles enterPairingCode() once the client answered companion_finish */
  settle?: { resolve: () => void; reject: (error: Error) => void }
}
