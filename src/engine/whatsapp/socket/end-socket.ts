import type { WASocket } from '@whiskeysockets/baileys'

/**
 * Ends a Baileys socket for good and fails the queries it still waits on. Baileys' end() removes
 * every 'close' listener of its WebSocket, those of its pending queries too, so each would wait
 * out its timeout (WA_QUERY_TIMEOUT_MS, 20 s): a send waiting on a device query would hold the
 * gateway's stop that long. Their 'error' listeners stay: an error tells them the connection
 * closed, as the close would have, and Baileys itself decides what was not sent (a query waited
 * on comes before the message is written).
 */
export function endSocket(socket: WASocket): void {
  socket.end(undefined)
  // Baileys' own 'error' listener (end again) is always there; the check keeps emit from throwing.
  if (socket.ws.listenerCount('error') > 0) socket.ws.emit('error', new Error('Connection Closed'))
}
