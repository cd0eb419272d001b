import type { WACallEvent } from '@whiskeysockets/baileys'
import type { RingingCalls } from './ringing-calls'
import type { ListenerContext } from './types'

/** Call states after which nothing rings any more. */
const ENDED = new Set<WACallEvent['status']>(['reject', 'accept', 'timeout', 'terminate'])

/**
 * Incoming call offers, rejected at once when the session is set to auto-reject; the others are
 * kept ringing (for a reject through the API) until WhatsApp says they ended.
 */
export function attachCallListener(
  { socket, logger, report }: ListenerContext,
  { autoReject, ringing }: { autoReject: () => boolean; ringing: RingingCalls },
): void {
  socket.ev.on('call', async (calls: WACallEvent[]) => {
    for (const call of calls) {
      if (ENDED.has(call.status)) ringing.ended(call.id)
      if (call.status !== 'offer') continue
      const rejected = autoReject()
      if (rejected) {
        await socket.rejectCall(call.id, call.from).catch((error: unknown) => {
          logger.warn({ err: error, callId: call.id }, 'could not reject call')
        })
      } else ringing.offered(call.id, call.from)
      report({ type: 'call', callId: call.id, from: call.from, isVideo: Boolean(call.isVideo), rejected })
    }
  })
}
