import { GatewayError } from '../errors'

/**
 * The open event streams of one gateway: a cap per workspace (a stream holds a connection and
 * polls the outbox, so a client opening thousands must be refused, not served), and one signal
 * that ends them all when the gateway stops, so a server's close() need not wait for them.
 */
export class EventStreams {
  readonly #open = new Map<string, number>()
  readonly #ending = new AbortController()
  #awaitingAuth = 0

  constructor(
    readonly perWorkspace: number,
    /** Sockets open without a credential yet (waiting for their auth frame), across all workspaces. */
    readonly maxAwaitingAuth = 100,
  ) {}

  /** Aborted once the gateway stops: every stream ends at its next turn. */
  get ending(): AbortSignal {
    return this.#ending.signal
  }

  /** Takes one of the workspace's slots (429 when none is left); the answer gives it back, once. */
  open(workspaceId: string): () => void {
    const open = this.#open.get(workspaceId) ?? 0
    if (open >= this.perWorkspace) {
      throw new GatewayError(
        'rate_limited',
        `This workspace already has ${open} event streams open (at most ${this.perWorkspace}); close one first`,
        { limit: this.perWorkspace },
        { 'retry-after': '5' },
      )
    }
    this.#open.set(workspaceId, open + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.#open.get(workspaceId) ?? 1) - 1
      if (left > 0) this.#open.set(workspaceId, left)
      else this.#open.delete(workspaceId)
    }
  }

  /**
   * Counts a socket opened without a credential until it authenticated or closed: nobody is known
   * yet, so the bound is the gateway's, not a workspace's (429 past it). The answer ends it, once.
   */
  awaitAuth(): () => void {
    if (this.#awaitingAuth >= this.maxAwaitingAuth) {
      throw new GatewayError(
        'rate_limited',
        `${this.#awaitingAuth} event sockets are waiting for their auth frame already (at most ${this.maxAwaitingAuth}); send the credential in the handshake or try again`,
        { limit: this.maxAwaitingAuth },
        { 'retry-after': '5' },
      )
    }
    this.#awaitingAuth++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.#awaitingAuth--
    }
  }

  endAll(): void {
    this.#ending.abort()
  }
}
