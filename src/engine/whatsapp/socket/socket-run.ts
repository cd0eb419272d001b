import { S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import type { Logger } from '../../../logger'

/** What one socket went through, for telling why it closed (see close-cause.ts). */
export interface SocketRun {
  viaProxy: boolean
  reachedServer: boolean
  probeFailed: boolean
  probing: boolean
  lastFrameAt: number
  /** The version it announced (a 405 refused that one). */
  version: [number, number, number]
}

export const newSocketRun = (viaProxy: boolean, version: [number, number, number]): SocketRun => ({
  viaProxy,
  reachedServer: false,
  probeFailed: false,
  probing: false,
  lastFrameAt: Date.now(),
  version,
})

/** Follows the socket's WebSocket: whether it reached the server, and when the last frame came. */
export function watchSocket(socket: WASocket, run: SocketRun): void {
  socket.ws.on('open', () => {
    run.reachedServer = true
  })
  // Baileys forwards ws's 'unexpected-response' (an HTTP answer instead of the upgrade, e.g. a
  // proxy's 407) without handling it, and ws then neither errors nor closes: end it ourselves.
  socket.ws.on('unexpected-response', (_request: unknown, response: { statusCode?: number }) => {
    socket.end(new Error(`Unexpected server response: ${response.statusCode}`) as never)
  })
  socket.ws.on('frame', () => {
    run.lastFrameAt = Date.now()
  })
}

/**
 * One ping now (a send went unacknowledged): when nothing at all answers within `waitMs`, the
 * socket is closed as unresponsive rather than waiting for Baileys' keep-alive to notice.
 */
export function probeLiveness(
  socket: WASocket,
  run: SocketRun,
  { waitMs, logger, stillCurrent }: { waitMs: number; logger: Logger; stillCurrent: () => boolean },
): void {
  if (run.probing) return
  run.probing = true
  const since = Date.now()
  const ping = {
    tag: 'iq',
    attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'w:p' },
    content: [{ tag: 'ping', attrs: {} }],
  }
  // rc14's query() resolves undefined when nothing answers in time; any frame at all also counts as alive.
  void socket
    .query(ping, waitMs)
    .catch(() => undefined)
    .then((answer) => {
      run.probing = false
      if (answer || run.lastFrameAt > since || !stillCurrent()) return
      run.probeFailed = true
      logger.warn({ waitMs }, 'nothing answered a liveness ping; closing the socket')
      socket.end(new Error(`no answer to a liveness ping within ${waitMs} ms`) as never)
    })
}
