import type { SendTextInput } from '../../../schemas/message'
import type { GatewayContext } from '../../context'
import type { PreparedMessage } from './prepare'

/**
 * A text, with the preview of its first URL when previews are on (the operator's LINK_PREVIEWS,
 * then the request's linkPreview, default on). The preview is made before anything is recorded
 * and never fails the send: without one the text goes as it is, its record saying
 * `linkPreview: null`.
 */
export async function textMessage(
  ctx: Pick<GatewayContext, 'config' | 'linkPreviews' | 'logger'>,
  input: SendTextInput & { sessionId: string },
): Promise<PreparedMessage> {
  const text = input.message
  const plain: PreparedMessage = { type: 'text', content: { kind: 'text', text }, summary: { text } }
  if (!ctx.config.linkPreviews || input.linkPreview === false) return plain
  const outcome = await ctx.linkPreviews.preview(text)
  if (!outcome) return plain
  if (!outcome.preview) {
    ctx.logger.info({ sessionId: input.sessionId, reason: outcome.reason }, 'text sent without its link preview')
    return { ...plain, summary: { text, linkPreview: null } }
  }
  const { canonicalUrl, title, description, jpegThumbnail } = outcome.preview
  return {
    type: 'text',
    content: { kind: 'text', text, preview: outcome.preview },
    summary: {
      text,
      linkPreview: { url: canonicalUrl, title, ...(description ? { description } : {}), thumbnail: !!jpegThumbnail },
    },
  }
}
