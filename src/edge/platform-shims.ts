/**
 * Every workerd-specific workaround the edge build needs, in one module. Each names the upstream
 * bug and the test that proves it is still needed: `test/edge/edge.test.ts` ("platform bugs
 * the shims work around still reproduce") calls GET /__edge/platform, which runs `probePlatformBugs()`
 * against the unpatched builtins. When a workerd upgrade fixes one, that test fails: delete the shim.
 *
 * wrangler.toml aliases the `ws` package to this module (its default export), because Baileys
 * imports `ws`, and in a Worker that resolves to ws/browser.js, which throws
 * "ws does not work in the browser".
 */
import { EventEmitter } from 'node:events'
import { createCipheriv, createDecipheriv } from 'node:crypto'

const PATCHED = Symbol.for('wa-gateway.edge.patched')
type Patchable = ((...args: never[]) => unknown) & { [PATCHED]?: (...args: never[]) => unknown }

function gcmPrototypes(): Array<{ setAAD: Patchable }> {
  return [createCipheriv, createDecipheriv].map((make) =>
    Object.getPrototypeOf(make('aes-256-gcm', Buffer.alloc(32), Buffer.alloc(12))),
  )
}

/**
 * workerd nodejs_compat (1.20260426): GCM `setAAD(<0-byte buffer>)` makes `Cipheriv#final()` throw
 * "Authentication failed" and `Decipheriv#setAAD` throw "Failed to set AAD". Baileys' Noise
 * transport (Utils/noise-handler) passes an empty AAD on every frame after the handshake, so
 * without this no QR ever arrives. No upstream issue found; probe: `gcmEmptyAad`.
 * GCM with an empty AAD is GCM without AAD, so the empty call is skipped.
 */
function patchGcmEmptyAad(): void {
  for (const proto of gcmPrototypes()) {
    if (proto.setAAD[PATCHED]) continue
    const original = proto.setAAD as unknown as (this: unknown, aad: ArrayBufferView, options?: unknown) => unknown
    const patched = function (this: unknown, aad: ArrayBufferView, options?: unknown) {
      return aad && aad.byteLength === 0 ? this : original.call(this, aad, options)
    } as unknown as Patchable
    patched[PATCHED] = original as unknown as Patchable
    proto.setAAD = patched
  }
}

/**
 * workerd issues #6875 / #6897 (fix: PR #6891): `Buffer#utf8Write(str, offset)` without a length
 * defaults it to `buf.length` instead of `buf.length - offset`, so it throws ERR_OUT_OF_RANGE for
 * any offset > 0. protobufjs writes every string field of 40+ characters that way: every longer
 * text fails with Baileys' "All encryptions failed". Probe: `utf8WriteOffset`.
 */
function patchUtf8Write(): void {
  const proto = Buffer.prototype as unknown as { utf8Write: Patchable }
  if (proto.utf8Write[PATCHED]) return
  const original = proto.utf8Write as unknown as (this: Buffer, s: string, offset?: number, length?: number) => number
  const patched = function (this: Buffer, s: string, offset = 0, length?: number) {
    return original.call(this, s, offset, length ?? this.length - offset)
  } as unknown as Patchable
  patched[PATCHED] = original as unknown as Patchable
  proto.utf8Write = patched
}

/** Applies every patch (process-wide, idempotent); the worker entry calls it before Baileys runs. */
export function applyPlatformShims(): void {
  patchGcmEmptyAad()
  patchUtf8Write()
}

/** Whether each bug still reproduces on the *unpatched* builtin (true: the shim is still needed). */
export function probePlatformBugs(): Record<'gcmEmptyAad' | 'utf8WriteOffset', boolean | string> {
  const unpatched = <T>(fn: T): T => ((fn as Patchable)[PATCHED] as T) ?? fn
  let gcmEmptyAad: boolean | string
  try {
    const cipher = createCipheriv('aes-256-gcm', Buffer.alloc(32), Buffer.alloc(12))
    unpatched((cipher as unknown as { setAAD: Patchable }).setAAD as unknown as (b: Buffer) => unknown).call(
      cipher,
      Buffer.alloc(0),
    )
    cipher.update(Buffer.from('x'))
    cipher.final()
    gcmEmptyAad = false
  } catch (error) {
    gcmEmptyAad = `reproduces: ${(error as Error).message}`
  }
  let utf8WriteOffset: boolean | string
  try {
    const buf = Buffer.alloc(8)
    unpatched(
      (buf as unknown as { utf8Write: Patchable }).utf8Write as unknown as (s: string, o: number) => number,
    ).call(buf, 'ab', 2)
    utf8WriteOffset = false
  } catch (error) {
    utf8WriteOffset = `reproduces: ${(error as Error).message}`
  }
  return { gcmEmptyAad, utf8WriteOffset }
}

type WsOptions = { origin?: string; headers?: Record<string, string>; handshakeTimeout?: number }

/**
 * The part of the `ws` client Baileys (lib/Socket/Client/websocket.js) uses, over workerd's
 * WebSocket: opened with fetch + `Upgrade: websocket`, the only way a Worker can send `Origin`
 * and other headers. Binary frames must arrive as ArrayBuffer: since compatibility date
 * 2026-03-17 (`websocket_standard_binary_type`) workerd delivers Blobs, which Baileys' Noise
 * decoder cannot read synchronously, so `binaryType` is set before `accept()`.
 */
export default class WebSocket extends EventEmitter {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSING = 2
  static readonly CLOSED = 3
  readonly CONNECTING = 0
  readonly OPEN = 1
  readonly CLOSING = 2
  readonly CLOSED = 3

  readyState = WebSocket.CONNECTING
  #socket: globalThis.WebSocket | undefined
  #closeWhenOpen: { code?: number; reason?: string } | undefined

  constructor(url: string | URL, options: WsOptions = {}) {
    super()
    const target = new URL(url.toString())
    if (target.protocol === 'wss:') target.protocol = 'https:'
    if (target.protocol === 'ws:') target.protocol = 'http:'
    const headers = new Headers(options.headers ?? {})
    headers.set('Upgrade', 'websocket')
    if (options.origin) headers.set('Origin', options.origin)
    const abort = new AbortController()
    const timer = options.handshakeTimeout
      ? setTimeout(() => abort.abort(new Error('Opening handshake has timed out')), options.handshakeTimeout)
      : undefined
    fetch(target, { headers, signal: abort.signal })
      .then((response) => {
        clearTimeout(timer)
        const socket = (response as unknown as { webSocket: globalThis.WebSocket | null }).webSocket
        if (!socket) throw new Error(`Unexpected server response: ${response.status}`)
        ;(socket as { binaryType: string }).binaryType = 'arraybuffer'
        ;(socket as unknown as { accept(): void }).accept()
        this.#socket = socket
        socket.addEventListener('message', (event) => {
          const data = event.data as string | ArrayBuffer
          this.emit(
            'message',
            typeof data === 'string' ? Buffer.from(data) : Buffer.from(data),
            typeof data !== 'string',
          )
        })
        socket.addEventListener('close', (event) => this.#closed(event.code, event.reason))
        socket.addEventListener('error', (event) =>
          this.emit('error', (event as ErrorEvent).error ?? new Error('websocket error')),
        )
        if (this.#closeWhenOpen) {
          this.readyState = WebSocket.CLOSING
          socket.close(this.#closeWhenOpen.code ?? 1000, this.#closeWhenOpen.reason)
          return
        }
        this.readyState = WebSocket.OPEN
        this.emit('open')
      })
      .catch((error: unknown) => {
        clearTimeout(timer)
        this.emit('error', error instanceof Error ? error : new Error(String(error)))
        this.#closed(1006, '')
      })
  }

  #closed(code: number, reason: string): void {
    if (this.readyState === WebSocket.CLOSED) return
    this.readyState = WebSocket.CLOSED
    this.emit('close', code, Buffer.from(reason ?? ''))
  }

  send(data: Uint8Array | ArrayBuffer | string, cb?: (err?: Error) => void): void {
    try {
      if (!this.#socket || this.readyState !== WebSocket.OPEN)
        throw new Error(`WebSocket is not open: readyState ${this.readyState}`)
      this.#socket.send(data)
      if (cb) queueMicrotask(() => cb())
    } catch (error) {
      if (!cb) throw error
      queueMicrotask(() => cb(error as Error))
    }
  }

  close(code?: number, reason?: string): void {
    if (this.readyState === WebSocket.CLOSED || this.readyState === WebSocket.CLOSING) return
    this.readyState = WebSocket.CLOSING
    if (!this.#socket) {
      this.#closeWhenOpen = { code, reason }
      return
    }
    try {
      this.#socket.close(code ?? 1000, reason)
    } catch {
      this.#closed(1006, '')
    }
  }

  terminate(): void {
    this.close()
    this.#closed(1006, '')
  }
}

export { WebSocket }
