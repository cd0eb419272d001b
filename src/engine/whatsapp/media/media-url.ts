/**
 * Where a received file may be downloaded from. A media message names its file itself (`url`,
 * `directPath`), and the sender writes both: WhatsApp relays message content end to end
 * encrypted and never checks it. So the place is taken only from WhatsApp's media hosts, over
 * https, the way Baileys reads it (downloadContentFromMessage: the direct path on the host of
 * `url`, default mmg.whatsapp.net; `url` itself only when there is no direct path).
 */

/** Where Baileys downloads a file whose message has a direct path but no usable `url`. */
const DEFAULT_HOST = 'mmg.whatsapp.net'
/** WhatsApp's media hosts: mmg.whatsapp.net, media-*.cdn.whatsapp.net, … (port 443 only). */
const WHATSAPP_HOST = /^(?:[a-z0-9-]+\.)+whatsapp\.net$/
/** A direct path is a path on the host: one `/`, never `//` or `/\` (which a URL parser may read as a new host). */
const DIRECT_PATH = /^\/(?![/\\])[\x21-\x7e]*$/
/** Real direct paths are about 150 characters. */
const MAX_DIRECT_PATH = 2_048

export type MediaUrlVerdict = { ok: true; url: URL } | { ok: false; refused: string }

/**
 * Pure: the URL a file's message lets the gateway download it from, or why there is none.
 * `hosts` are the other hosts allowed beside `*.whatsapp.net` on 443, as `host[:port]` (the
 * hosts media_conn announced; the simulator's media host): exactly those, port included.
 */
export function mediaDownloadUrl(
  media: { url?: string | null; directPath?: string | null },
  hosts: readonly string[],
  /** Where a direct path without a url goes: the host media_conn announced, else mmg.whatsapp.net. */
  fallbackHost: string = DEFAULT_HOST,
): MediaUrlVerdict {
  const refuse = (why: string): MediaUrlVerdict => ({ ok: false, refused: why })
  const allowed = new Set(hosts.map(canonicalHost).filter((host) => host !== undefined))
  const isAllowed = (url: URL) =>
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    ((url.port === '' && WHATSAPP_HOST.test(url.hostname)) || allowed.has(url.host))

  let named: URL | undefined
  if (media.url) {
    named = parse(media.url)
    if (!named) return refuse('the url is not a URL')
    if (named.protocol !== 'https:') return refuse('the url is not https')
    if (named.username || named.password) return refuse('the url carries user info')
    if (!isAllowed(named)) return refuse('the url is not on a WhatsApp media host')
  }
  if (!media.directPath) return named ? { ok: true, url: named } : refuse('there is neither a direct path nor a url')

  const path = media.directPath
  if (path.length > MAX_DIRECT_PATH || !DIRECT_PATH.test(path))
    return refuse('the direct path is not a path starting with a single "/"')
  const host = named?.host ?? canonicalHost(fallbackHost) ?? DEFAULT_HOST
  const url = new URL(`https://${host}${path}`)
  // Belt and braces: the path must not have moved the request anywhere else
  if (!isAllowed(url) || url.host !== host) return refuse('the direct path leaves the media host')
  return { ok: true, url }
}

/** A host[:port] as a URL's `host` spells it (lower case, port 443 left out), or undefined when it is not one. */
function canonicalHost(host: string): string | undefined {
  const url = parse(`https://${host}`)
  return url && url.pathname === '/' && !url.username && !url.password && !url.search && !url.hash
    ? url.host
    : undefined
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw)
  } catch {
    return undefined
  }
}
