import { setTimeout as sleep } from 'node:timers/promises'
import { createParser, type EventSourceMessage } from 'eventsource-parser'

export interface OpenStream {
  status: number
  headers: Headers
  /** Every event received so far, in order. */
  events: EventSourceMessage[]
  /** Comment lines (keep-alives) received so far. */
  comments: string[]
  /** Resolves once `predicate` holds for the events received (polls, like vi.waitFor). */
  until(predicate: (events: EventSourceMessage[]) => boolean, timeoutMs?: number): Promise<EventSourceMessage[]>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close(): void
}

/** Reads a Server-Sent Events response as a client would, with the maintained parser. */
export function readEventStream(response: Response, abort: AbortController): OpenStream {
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  })
  const reader = response.body?.getReader()
  const ended = (async () => {
    if (!reader) return
    const decoder = new TextDecoder()
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read())
        parser.feed(decoder.decode(read.value, { stream: true }))
    } catch {
      // closed by close()
    }
  })()
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended,
    async until(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      while (!predicate(events)) {
        if (Date.now() > deadline)
          throw new Error(`stream never matched; got ${JSON.stringify(events.map((e) => e.event))}`)
        await sleep(20)
      }
      return events
    },
    close() {
      abort.abort() // a network client's connection closes
      void reader?.cancel().catch(() => {}) // an in-process one's body is cancelled
    },
  }
}
