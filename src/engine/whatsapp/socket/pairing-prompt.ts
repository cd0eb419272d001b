import type { WASocket } from '@whiskeysockets/baileys'
import type { OpenOptions, PairingPrompt } from '../port'

/**
 * The first QR of a new pairing (and, in pairing-code mode, the code asked for with it): what a
 * connect waits for. Settled once; later QRs are facts only.
 */
export class FirstPrompt {
  readonly promise: Promise<PairingPrompt>
  #resolve!: (prompt: PairingPrompt) => void
  #reject!: (error: Error) => void
  #prompted = false

  constructor() {
    this.promise = new Promise<PairingPrompt>((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
    this.promise.catch(() => {}) // a restore never awaits its prompt
  }

  /** A QR arrived: the first one settles the prompt (after asking for a pairing code, in that mode). */
  async offer(socket: WASocket, qr: string, options: OpenOptions): Promise<void> {
    if (this.#prompted) return
    this.#prompted = true
    if (options.mode !== 'pairing') return this.#resolve({ qr })
    try {
      const pairingCode = await socket.requestPairingCode(options.pairingNumber!)
      this.#resolve({ qr, pairingCode })
    } catch (error) {
      this.#reject(error as Error)
    }
  }

  /** The link closed first: a connect still waiting is told so. */
  fail(error: Error): void {
    this.#reject(error)
  }
}
