import ipaddr from 'ipaddr.js'
import { bareHost } from './url-guard'
import type { HostResolver } from './host-resolver'

/** The proxies a session's WhatsApp traffic may go through. */
export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:'] as const
export type ProxyScheme = (typeof PROXY_SCHEMES)[number]

const DEFAULT_PORTS: Record<ProxyScheme, number> = { 'http:': 80, 'https:': 443, 'socks5:': 1080 }
/** SOCKS5 (RFC 1929) carries each credential in one length byte; HTTP proxies take the same bound. */
const MAX_CREDENTIAL_BYTES = 255
export const MAX_PROXY_URL_LENGTH = 2048

export interface ProxyEndpoint {
  scheme: ProxyScheme
  /** Without IPv6 brackets. */
  host: string
  port: number
  username?: string
  password?: string
}

const decode = (part: string) => {
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}

/** Why a proxy URL cannot be used (its shape only, no DNS), or null. Never quotes the URL: it may carry a password. */
export function proxyUrlProblem(raw: string): string | null {
  if (raw.length > MAX_PROXY_URL_LENGTH) return `must be at most ${MAX_PROXY_URL_LENGTH} characters`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL such as socks5://user:password@host:1080'
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(url.protocol)) return 'must use http, https or socks5'
  if (!bareHost(url)) return 'must name a host'
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash)
    return 'must be scheme, credentials, host and port only (no path, query or fragment)'
  if (url.password && !url.username) return 'has a password without a user name'
  for (const part of [url.username, url.password]) {
    const decoded = decode(part)
    if (decoded === undefined) return 'has a badly percent-encoded user name or password'
    if (new TextEncoder().encode(decoded).length > MAX_CREDENTIAL_BYTES)
      return `user name and password must be at most ${MAX_CREDENTIAL_BYTES} bytes each`
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(decoded)) return 'user name and password must not contain control characters'
  }
  return null
}

/** A valid proxy URL (see proxyUrlProblem) taken apart. */
export function parseProxyUrl(raw: string): ProxyEndpoint {
  const problem = proxyUrlProblem(raw)
  if (problem) throw new Error(`proxy URL ${problem}`)
  const url = new URL(raw)
  const scheme = url.protocol as ProxyScheme
  return {
    scheme,
    host: bareHost(url),
    port: url.port ? Number(url.port) : DEFAULT_PORTS[scheme],
    ...(url.username ? { username: decode(url.username) } : {}),
    ...(url.password ? { password: decode(url.password) } : {}),
  }
}

/** The URL as the API answers it and logs may show it: the password replaced by ****. */
export function maskProxyUrl(raw: string): string {
  const url = new URL(raw)
  if (url.password) url.password = '****'
  return url.href.replace(/\/$/, '')
}

/**
 * Address ranges a workspace may name for its proxy: public unicast and the private ranges a
 * proxy normally sits in (RFC 1918, CGNAT, IPv6 unique local). Never loopback, link-local (and
 * so cloud metadata), unspecified, multicast or reserved: a workspace key must not turn the
 * proxy into a way to reach the gateway host's own services (ALLOW_PRIVATE_ADDRESSES lifts it).
 */
const PROXY_RANGES = new Set(['unicast', 'private', 'carrierGradeNat', 'uniqueLocal'])

export function isForbiddenProxyAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return true
  return !PROXY_RANGES.has(parsed.range())
}

const LOOPBACK_NAME = /(^|\.)localhost$/i

/**
 * Why a workspace's proxy may not be used from here, or null: the shape, then the host (a
 * literal address, `localhost`, or every address the name resolves to now). A name that does
 * not resolve now is not refused (the engine resolves it again, and checks, before each connection).
 */
export async function proxyHostProblem(
  raw: string,
  resolver: HostResolver,
  allowPrivateAddresses: boolean,
): Promise<string | null> {
  const problem = proxyUrlProblem(raw)
  if (problem || allowPrivateAddresses) return problem
  const { host } = parseProxyUrl(raw)
  const refused = 'must not point at a loopback, link-local or reserved address'
  if (LOOPBACK_NAME.test(host.replace(/\.+$/, ''))) return refused
  if (ipaddr.isValid(host)) return isForbiddenProxyAddress(host) ? refused : null
  let answers: readonly { address: string }[]
  try {
    answers = await resolver(host)
  } catch {
    return null
  }
  return answers.some((answer) => isForbiddenProxyAddress(answer.address)) ? refused : null
}
