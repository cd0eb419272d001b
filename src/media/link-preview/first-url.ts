/**
 * The first http(s) URL written in a text, as WhatsApp's apps find the link to preview: with its
 * scheme, up to the first space, trailing sentence punctuation left out. Pure.
 */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"]+/i
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', ')', ']', '}'])

export function firstUrl(text: string): { matchedText: string; url: string } | undefined {
  const found = URL_IN_TEXT.exec(text)?.[0]
  if (!found) return undefined
  // A loop, not a regex anchored at the end: that one backtracks on a long run of dots.
  let end = found.length
  while (end > 0 && TRAILING.has(found[end - 1]!)) end--
  const matchedText = found.slice(0, end)
  try {
    return { matchedText, url: new URL(matchedText).href }
  } catch {
    return undefined
  }
}
