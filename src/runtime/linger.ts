import type { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'

/**
 * How long, and how much, a connection closed over an unread request body keeps reading it, as
 * nginx's `lingering_close` does (its `lingering_time` is 30 s): time for a client to finish
 * sending a body a few times the limit, never a way to hold a socket for ever.
 */
export interface LingerBounds {
  ms: number
  bytes: number
}
export const LINGER_BOUNDS: LingerBounds = { ms: 2_000, bytes: 8 * 1024 * 1024 }

const closeAtOnce = Socket.prototype.destroySoon

/**
 * Node's server closes a `Connection: close` answer's socket as soon as the answer is written
 * (`destroySoon`). When the client is still sending a body we refused without reading it (a
 * 413, a 401), that close finds unread bytes and the kernel answers with a reset, which throws
 * away the answer waiting in the client's receive buffer: a client that writes the whole body
 * before reading never learns why it was refused. So the close lingers: half-close (the client
 * sees the answer end), read and drop the rest of the body, close when it has come or the client
 * closes its side, or at the bounds.
 *
 * Armed on each request that may carry a body; one whose body was read closes as before.
 */
export function lingerOnUnreadBody(incoming: IncomingMessage, bounds: LingerBounds = LINGER_BOUNDS): void {
  const socket = incoming.socket
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (incoming.complete) return closeAtOnce.call(this)
    socket.destroySoon = () => {} // once: @hono/node-server's own drain asks again later
    socket.end()
    const cut = () => socket.destroy()
    const deadline = setTimeout(cut, bounds.ms)
    deadline.unref()
    socket.once('close', () => clearTimeout(deadline))
    socket.once('end', cut) // the client closed its side: it sends nothing more
    let read = 0
    // As Node drops an unread body (IncomingMessage#_dump): the body's readers are gone with the
    // answer, and the web stream Hono made of it would pause the flow once its queue is full.
    incoming.removeAllListeners('data')
    incoming.on('data', (chunk: Buffer) => {
      read += chunk.length
      if (read > bounds.bytes) cut()
    })
    incoming.once('end', cut) // all of it came: nothing is left unread to reset the answer
    incoming.resume()
  }
}

/**
 * Bun.serve gives no hold on the socket and closes it as soon as the answer is written, while
 * reading on in the background changes nothing. The one lever is the body itself: read and drop
 * it, within the same bounds, before the answer goes. The client then gets its answer once it
 * has sent the body (or at the bounds) rather than at once.
 */
export async function discardBody(body: ReadableStream<Uint8Array>, bounds: LingerBounds = LINGER_BOUNDS) {
  const reader = body.getReader()
  const deadline = setTimeout(() => void reader.cancel().catch(() => {}), bounds.ms)
  let read = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      read += value.byteLength
      if (read > bounds.bytes) return void (await reader.cancel())
    }
  } catch {
    // The client went away or the deadline cancelled the read: either way, answer now.
  } finally {
    clearTimeout(deadline)
  }
}
