import type { MessageContent } from '../../shared/message-content'

/** Chatwoot's default attachment limit (40 MB): a larger file goes as a line saying so. */
export const MAX_ATTACHMENT_BYTES = 40 * 1024 * 1024

const KIND_LABEL: Record<string, string> = {
  image: 'Photo',
  video: 'Video',
  audio: 'Audio',
  ptt: 'Voice note',
  document: 'Document',
  sticker: 'Sticker',
}

/**
 * A WhatsApp message as Chatwoot text: its text or caption; a location, contact card or poll
 * as readable lines; a file Chatwoot will not get as an attachment as a labelled line. In a
 * group the sender's name comes first, in bold (Chatwoot renders Markdown).
 */
export function renderContent(
  type: string,
  content: MessageContent,
  options: { sender?: string; attached: boolean } = { attached: false },
): string {
  const lines: string[] = []
  if (options.sender) lines.push(`**${options.sender}:**`)
  const file = KIND_LABEL[type]
  if (file && !options.attached) lines.push(`[${file}${content.fileName ? `: ${content.fileName}` : ''}]`)
  if (content.text) lines.push(content.text)
  if (content.caption) lines.push(content.caption)
  if (content.latitude !== undefined && content.longitude !== undefined) {
    lines.push(
      `📍 ${content.name ? `${content.name} ` : ''}https://maps.google.com/?q=${content.latitude},${content.longitude}`,
    )
  }
  for (const card of content.contacts ?? []) {
    lines.push(`👤 ${[card.name, ...card.phones.map((p) => `+${p}`)].filter(Boolean).join(' ')}`)
  }
  if (content.question) lines.push(`📊 ${content.question}`, ...(content.options ?? []).map((o) => `- ${o}`))
  if (lines.length === 0 || (options.sender && lines.length === 1)) lines.push(`[${file ?? type}]`)
  return lines.join('\n')
}
