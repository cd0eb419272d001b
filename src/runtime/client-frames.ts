/**
 * A WebSocket client frame larger than this closes its socket with 1009, checked by the server
 * before the frame is buffered: a client of the event stream sends one auth frame at most
 * (a JWT fits with room to spare), so more is garbage or an attack on memory.
 */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024
