import { rootCertificates } from 'node:tls'
import { isBun } from '../../src/runtime/detect'

const extraCas = new Set<string>()
let wrapped = false

/**
 * On Node the engine hands Baileys an https.Agent that trusts the simulator's media CA. On
 * Bun, Baileys uploads media with the global fetch, which takes no Agent: wrap fetch so this
 * test process also trusts the simulator's CA (Bun's `tls.ca` option), next to the public roots.
 * WhatsApp's real media hosts have public certificates; only the simulator needs this.
 */
export function trustSimulatorCaOnBun(pem: string): void {
  if (!isBun()) return
  extraCas.add(pem)
  if (wrapped) return
  wrapped = true
  const original = globalThis.fetch
  const withCa = (input: Parameters<typeof fetch>[0], init?: RequestInit & { tls?: object }) =>
    original(input, { ...init, tls: { ca: [...rootCertificates, ...extraCas], ...init?.tls } } as RequestInit)
  globalThis.fetch = Object.assign(withCa, original)
}
