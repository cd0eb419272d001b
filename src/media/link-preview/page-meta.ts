/**
 * What a link preview shows, read from the start of an HTML page: Open Graph tags, else the
 * Twitter card's, else <title> and the meta description. A small scanner rather than an HTML
 * parser: the input is at most the fetcher's cap (256 KiB), only <title> and <meta> in the head
 * matter, and one pass with indexOf keeps it linear whatever the page holds (no backtracking
 * regex over the whole page, no DOM). Pure.
 */
export interface PageMeta {
  title?: string
  description?: string
  /** Absolute http(s) URL of the page's picture. */
  image?: string
}

const MAX_TITLE = 256
const MAX_DESCRIPTION = 1024

/** Elements whose content is text up to their end tag: a `<meta` inside a script is no tag. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'noscript', 'template'])
const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

export function readPageMeta(html: string, pageUrl: string): PageMeta {
  const lower = html.toLowerCase()
  const tags = new Map<string, string>()
  let title: string | undefined
  let pos = 0
  while (pos < html.length) {
    const open = html.indexOf('<', pos)
    if (open < 0) break
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4)
      pos = close < 0 ? html.length : close + 3
      continue
    }
    TAG_NAME.lastIndex = open
    const name = TAG_NAME.exec(html)
    if (!name) {
      pos = open + 1
      continue
    }
    const end = tagEnd(html, TAG_NAME.lastIndex)
    const tag = name[2]!.toLowerCase()
    const closing = name[1] === '/'
    // Everything a preview needs is in the head; the body is not read.
    if ((closing && tag === 'head') || (!closing && tag === 'body')) break
    pos = end + 1
    if (closing) continue
    if (tag === 'meta') addMeta(tags, html.slice(TAG_NAME.lastIndex, end))
    if (RAW_TEXT.has(tag)) {
      const close = lower.indexOf(`</${tag}`, pos)
      const text = html.slice(pos, close < 0 ? html.length : close)
      if (tag === 'title' && title === undefined) title = text
      pos = close < 0 ? html.length : close
    }
  }
  const pick = (...names: string[]) => names.map((n) => tags.get(n)).find((value) => value)
  const image = pick('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src')
  return {
    title: clean(pick('og:title', 'twitter:title') ?? title, MAX_TITLE),
    description: clean(pick('og:description', 'twitter:description', 'description'), MAX_DESCRIPTION),
    image: image ? absoluteHttpUrl(decodeEntities(image.trim()), pageUrl) : undefined,
  }
}

/** The `>` that ends a tag, quotes respected; the end of the text when there is none. */
function tagEnd(html: string, from: number): number {
  let quote = ''
  for (let i = from; i < html.length; i++) {
    const c = html[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '>') return i
  }
  return html.length
}

/** `<meta property|name=… content=…>`: the first value of each name wins, as crawlers read it. */
function addMeta(tags: Map<string, string>, attributes: string) {
  const attrs = new Map<string, string>()
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const key = match[1]!.toLowerCase()
    if (!attrs.has(key)) attrs.set(key, match[2] ?? match[3] ?? match[4] ?? '')
  }
  const name = (attrs.get('property') ?? attrs.get('name'))?.trim().toLowerCase()
  const content = attrs.get('content')
  if (name && content !== undefined && !tags.has(name)) tags.set(name, content)
}

function clean(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined
  const text = decodeEntities(value).replace(/\s+/g, ' ').trim()
  if (!text) return undefined
  const chars = [...text]
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8}|#39);/gi, (whole, ref: string) => {
    const lowered = ref.toLowerCase()
    if (lowered.startsWith('#x')) return codePoint(Number.parseInt(lowered.slice(2), 16)) ?? whole
    if (lowered.startsWith('#')) return codePoint(Number.parseInt(lowered.slice(1), 10)) ?? whole
    return NAMED[lowered] ?? whole
  })
}

const codePoint = (n: number) =>
  n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : undefined

function absoluteHttpUrl(value: string, base: string): string | undefined {
  try {
    const url = new URL(value, base)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined
  } catch {
    return undefined
  }
}
