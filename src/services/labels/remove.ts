import type { GatewayContext } from '../context'
import { findLabel, labelFailure, labelSession } from './access'
import { onLabelChange } from './facts'

/** Deletes a label (404 for one the session does not have): its chats and messages lose it too. */
export async function deleteLabel(
  ctx: GatewayContext,
  { workspaceId, sessionId, labelId }: { workspaceId: string; sessionId: string; labelId: string },
) {
  const { session, handle } = await labelSession(ctx, workspaceId, sessionId)
  findLabel(ctx, session.id, labelId)
  try {
    await handle.labels.remove(labelId)
  } catch (error) {
    throw labelFailure(error, 'the label deletion')
  }
  onLabelChange(ctx, session.id, { kind: 'deleted', labelId })
  return { sessionId: session.id, labelId, deleted: true as const }
}
