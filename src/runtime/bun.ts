import type { RunningServer, ServeOptions } from './serve'

interface BunServer {
  port: number
  stop(closeActiveConnections?: boolean): Promise<void> | void
}
declare const Bun: { serve(options: { fetch: ServeOptions['fetch']; port: number; hostname: string }): BunServer }

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const server = Bun.serve({ fetch: options.fetch, port: options.port, hostname: options.hostname })
  return { port: server.port, close: async () => void (await server.stop()) }
}
