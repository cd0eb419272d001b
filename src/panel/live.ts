/**
 * The gateway's event stream, followed for live updates: GET /v1/events read with fetch (so the
 * key travels in a header, never in the URL) and parsed as Server-Sent Events, resuming after the
 * last event seen. On the edge each session keeps its own stream (the workspace's answers 400):
 * there the panel follows the selected session's and reads the session list every few seconds.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { authHeaders, base } from './api'
import { setReachable } from './reachability'
import { refreshSessions } from './sessions'
import { createStore } from './store'

export interface GatewayEvent {
  id: string | null
  type: string
  sessionId: string
  timestamp: string
  data: Record<string, unknown> & { status?: string }
}

const listeners = new Set<(event: GatewayEvent) => void>()
export const onEvent = (listener: (event: GatewayEvent) => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Whether the stream is per session (the edge) and which session it follows. */
export const streamMode = createStore<{ perSession: boolean }>({ perSession: false })

let controller: AbortController | null = null
let lastEventId: string | null = null
let followed: string | null = null
let poller: ReturnType<typeof setInterval> | null = null

export function stopFollowing() {
  controller?.abort()
  controller = null
  if (poller) clearInterval(poller)
  poller = null
  streamMode.set({ perSession: false })
  lastEventId = null
}

/** Starts (or, on the edge, re-points at `sessionId`) the stream. */
export function follow(sessionId: string | null = followed) {
  if (controller && streamMode.get().perSession && sessionId === followed) return
  if (controller && !streamMode.get().perSession) return
  if (sessionId !== followed) lastEventId = null
  followed = sessionId
  controller?.abort()
  const mine = new AbortController()
  controller = mine
  void run(mine)
}

async function run(mine: AbortController) {
  while (!mine.signal.aborted) {
    try {
      const perSession = streamMode.get().perSession
      const target = perSession
        ? followed
          ? `/v1/events?sessionId=${encodeURIComponent(followed)}`
          : null
        : '/v1/events'
      if (target) {
        const headers: Record<string, string> = { ...authHeaders(), accept: 'text/event-stream' }
        if (lastEventId) headers['last-event-id'] = lastEventId
        const response = await fetch(base + target, { headers, signal: mine.signal })
        setReachable(true)
        if (response.status === 401) return
        if (response.status === 400 && !perSession) {
          streamMode.set({ perSession: true })
          lastEventId = null
          poller = setInterval(() => refreshSessions().catch(() => {}), 5000)
          continue
        }
        if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`)
        const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())
        const reader = events.getReader()
        for (;;) {
          const { done, value: message } = await reader.read()
          if (done) break
          if (message.id) lastEventId = message.id
          const event = JSON.parse(message.data) as GatewayEvent
          event.id = message.id ?? null
          for (const listener of listeners) listener(event)
        }
      }
    } catch (error) {
      if (mine.signal.aborted) return
      if (error instanceof TypeError) setReachable(false)
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)) // then resume after the last event seen
  }
}
