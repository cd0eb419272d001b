import type http from 'node:http'
import { startLoopbackServer } from './loopback-server'

export interface SeenRequest {
  path: string
  host: string | undefined
}

export interface LocalServer {
  port: number
  url: (path: string) => string
  seen: SeenRequest[]
  close(): Promise<void>
}

/** A real HTTP server on a loopback address, with the answers the fetcher tests need. */
export async function startLocalServer(
  address = '127.0.0.1',
  routes: Record<string, http.RequestListener> = {},
): Promise<LocalServer> {
  const seen: SeenRequest[] = []
  const server = await startLoopbackServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    seen.push({ path: request.url ?? '', host: request.headers.host })
    const route = routes[path] ?? standardRoutes[path]
    if (route) return route(request, response)
    response.writeHead(404).end('not here')
  }, address)
  return { ...server, seen }
}

const standardRoutes: Record<string, http.RequestListener> = {
  '/hello': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
  '/teapot': (_req, res) => res.writeHead(418).end('no'),
  '/declared-big': (_req, res) => res.writeHead(200, { 'content-length': String(10_000) }).end(Buffer.alloc(10_000)),
  '/chunked-big': (_req, res) => {
    res.writeHead(200) // no content-length: chunked, so only counting can stop it
    const chunk = Buffer.alloc(1_000)
    let sent = 0
    const timer = setInterval(() => {
      if (res.destroyed || sent >= 10) {
        clearInterval(timer)
        res.end()
        return
      }
      res.write(chunk)
      sent++
    }, 5)
  },
  '/silent': () => {}, // never answers
  '/redirect': (req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/hello'
    res.writeHead(302, { location: to }).end()
  },
}
