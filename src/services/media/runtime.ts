import type { MediaStore } from '../../media/store'

/** Downloads fetched ahead at once in eager mode (the rest wait their turn). */
export const EAGER_CONCURRENCY = 4

/** One gateway's inbound-media machinery: its store, and the fetches under way. */
export interface InboundMedia {
  /** Where files are kept; undefined: fetched from WhatsApp for each request (the edge without a bucket). */
  store: MediaStore | undefined
  /** One fetch per file at a time: concurrent requests for it share the first one's. */
  inFlight: Map<string, Promise<void>>
  /** Eager fetches waiting for a slot. */
  eager: Slots
  /** Aborted when the gateway stops: downloads under way end (nothing half-written is kept). */
  stopping: AbortController
}

export function createInboundMedia(store: MediaStore | undefined): InboundMedia {
  return { store, inFlight: new Map(), eager: new Slots(EAGER_CONCURRENCY), stopping: new AbortController() }
}

/** At most `size` tasks at once, the rest in arrival order. */
export class Slots {
  #free: number
  readonly #waiting: (() => void)[] = []

  constructor(size: number) {
    this.#free = size
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--
    else await new Promise<void>((resolve) => this.#waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.#waiting.shift()
      if (next) next()
      else this.#free++
    }
  }
}
