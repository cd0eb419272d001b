import { rootCertificates } from 'node:tls'

type Fetch = typeof fetch

function hostOf(input: Parameters<Fetch>[0]): string | undefined {
  try {
    return new URL(input instanceof Request ? input.url : String(input)).host
  } catch {
    return undefined
  }
}
let trusted: { host: string; ca: string[] } | undefined

/**
 * With WA_SIMULATOR on Bun only. Baileys moves media with the global fetch there, which takes no
 * https.Agent (Node's path uses the agent in NetworkTarget), so the simulator's media host, under
 * the simulator's own CA, would be refused. Requests to that host (and only to it) also trust its
 * CA, beside the public roots; every other request is left exactly as it was. fetch is
 * process-wide, so this is too: it is installed once, and only in simulator mode. Nothing ever
 * disables verification.
 */
export function trustSimulatorMediaHostOnBun(mediaHost: string, caPem: string): void {
  if (typeof (globalThis as { Bun?: unknown }).Bun === 'undefined') return
  const first = trusted === undefined
  trusted = { host: mediaHost, ca: [...rootCertificates, caPem] }
  if (!first) return
  const original: Fetch = globalThis.fetch
  const withSimulatorCa = (input: Parameters<Fetch>[0], init?: RequestInit & { tls?: object }) => {
    if (!trusted || hostOf(input) !== trusted.host) return original(input, init)
    return original(input, { ...init, tls: { ca: trusted.ca, ...init?.tls } } as RequestInit)
  }
  globalThis.fetch = Object.assign(withSimulatorCa, original)
}
