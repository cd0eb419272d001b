import type { RunningServer, ServeOptions } from './serve'

interface BunServer {
  port: number
  stop(closeActiveConnections?: boolean): Promise<void> | void
}
interface BunServeOptions {
  fetch: ServeOptions['fetch']
  port: number
  hostname: string
  /** Seconds, at most 255 (Bun's cap); Bun's default is 10. */
  idleTimeout?: number
}
declare const Bun: { serve(options: BunServeOptions): BunServer }

/** Bun takes whole seconds up to 255: rounded up, so the idle time is never shorter than asked. */
export const bunIdleTimeoutSeconds = (ms: number) => Math.min(255, Math.ceil(ms / 1000))

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { keepAliveTimeoutMs } = options
  const server = Bun.serve({
    fetch: options.fetch,
    port: options.port,
    hostname: options.hostname,
    ...(keepAliveTimeoutMs === undefined ? {} : { idleTimeout: bunIdleTimeoutSeconds(keepAliveTimeoutMs) }),
  })
  return { port: server.port, close: async () => void (await server.stop()) }
}
