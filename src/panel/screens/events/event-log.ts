/**
 * Every gateway event the panel has seen, per session, newest first and bounded: recorded from the
 * moment the panel follows the stream (not only while the Events tab is open), so switching tabs
 * loses nothing.
 */
import { type GatewayEvent, onEvent } from '../../live'
import { createStore } from '../../store'

/** Events kept per session: enough to look back over a busy minute, small enough to re-render. */
export const EVENT_LOG_LIMIT = 500

export const eventLog = createStore<Record<string, GatewayEvent[]>>({})

onEvent((event) =>
  eventLog.update((all) => ({
    ...all,
    [event.sessionId]: [event, ...(all[event.sessionId] ?? [])].slice(0, EVENT_LOG_LIMIT),
  })),
)

/** Forgets what was seen (another key signs in: another workspace's events). */
export const clearEventLog = () => eventLog.set({})

/** Whether an event matches the chosen type ('' = any) and text (in its type or JSON, any case). */
export function matches(event: GatewayEvent, type: string, text: string): boolean {
  if (type && event.type !== type) return false
  if (!text) return true
  const needle = text.toLowerCase()
  return event.type.toLowerCase().includes(needle) || JSON.stringify(event.data).toLowerCase().includes(needle)
}

const SUMMARY_FIELDS = ['status', 'statusReason', 'from', 'to', 'chatId', 'text', 'caption', 'messageId'] as const

/** A one-line gist of an event's data: its first few telling fields (the JSON has the rest). */
export function summarize(event: GatewayEvent): string {
  const data = event.data as Record<string, unknown>
  const content = (data.content ?? {}) as Record<string, unknown>
  const parts: string[] = []
  for (const field of SUMMARY_FIELDS) {
    const value = data[field] ?? content[field]
    if (typeof value === 'string' && value) parts.push(value.length > 80 ? `${value.slice(0, 79)}…` : value)
    if (parts.length === 3) break
  }
  return parts.join(' · ')
}
