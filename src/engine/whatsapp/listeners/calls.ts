import type { WACallEvent } from '@whiskeysockets/baileys'
import type { ListenerContext } from './types'

/** Incoming call offers, rejected at once when the session is set to auto-reject. */
export function attachCallListener({ socket, logger, report }: ListenerContext, autoReject: () => boolean): void {
  socket.ev.on('call', async (calls: WACallEvent[]) => {
    for (const call of calls) {
      if (call.status !== 'offer') continue
      const rejected = autoReject()
      if (rejected) {
        await socket.rejectCall(call.id, call.from).catch((error: unknown) => {
          logger.warn({ err: error, callId: call.id }, 'could not reject call')
        })
      }
      report({ type: 'call', callId: call.id, from: call.from, isVideo: Boolean(call.isVideo), rejected })
    }
  })
}
