import { bareHost } from './url-guard'

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
