import { GatewayError } from '../errors'

/**
 * The open event streams of one gateway: a cap per workspace (a stream holds a connection and
 * polls the outbox, so a client opening thousands must be refused, not served), and one signal
 * that ends them all when the gateway stops, so a server's close() need not wait for them.
 */
export class EventStreams {
  readonly #open = new Map<string, number>()
  readonly #ending = new AbortController()

  constructor(readonly perWorkspace: number) {}

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

  endAll(): void {
    this.#ending.abort()
  }
}
