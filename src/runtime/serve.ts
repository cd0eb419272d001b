import { isBun } from './detect'

export interface ServeOptions {
  /** The app's fetch; the runtime's bindings come second (Node's request, Bun's server: WebSocket upgrades need them). */
  // biome-ignore lint/suspicious/noExplicitAny: each runtime passes its own bindings
  fetch: (request: Request, env?: any) => Response | Promise<Response>
  port: number
  hostname: string
  /** Idle keep-alive connections close after this (HTTP_KEEP_ALIVE_TIMEOUT_MS); the runtime's default when unset. */
  keepAliveTimeoutMs?: number
}

export interface RunningServer {
  /** The bound port (differs from the requested one when that was 0). */
  port: number
  close(): Promise<void>
}

/** Starts an HTTP server with the running runtime's own server: Bun.serve or @hono/node-server. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const runtime = isBun() ? await import('./bun') : await import('./node')
  return runtime.serve(options)
}
