import { eq } from 'drizzle-orm'
import { labels } from '../../db/schema'
import type { Label } from '../../engine/whatsapp/port/labels'
import { MAX_LABELS, type CreateLabelInput, type UpdateLabelInput } from '../../schemas/label'
import type { GatewayContext } from '../context'
import { validationError } from '../validation-error'
import { findLabel, labelFailure, labelSession, labelView } from './access'
import { onLabelChange } from './facts'

/**
 * Creates a label under the next free id (WhatsApp's ids are small numbers), at most MAX_LABELS
 * per account (400 past that). The row and its `label.upserted` event come from the change
 * itself, once WhatsApp took it, and app-state sync's report of it changes nothing more.
 */
export async function createLabel(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: CreateLabelInput },
) {
  const { session, handle } = await labelSession(ctx, workspaceId, input.sessionId)
  const rows = ctx.db.select({ id: labels.id }).from(labels).where(eq(labels.sessionId, session.id)).all()
  const reserved = reservedIds(ctx, session.id)
  if (rows.length + reserved.size >= MAX_LABELS)
    throw validationError([
      {
        path: 'name',
        message: `this account has ${rows.length} labels, the most WhatsApp Business keeps; delete one first`,
      },
    ])
  const taken = [...rows.map((row) => row.id), ...reserved].map(Number).filter(Number.isSafeInteger)
  const id = String(Math.max(0, ...taken) + 1)
  // Held from here to the answer: a create running meanwhile takes the next id, not this one.
  reserved.add(id)
  try {
    return await save(ctx, session.id, handle, { id, name: input.name, color: input.color }, 'the new label')
  } finally {
    reserved.delete(id)
    if (reserved.size === 0) reservations.get(ctx.db)?.delete(session.id)
  }
}

/** Ids handed to creates still waiting for WhatsApp, per gateway (its database) and session. */
const reservations = new WeakMap<object, Map<string, Set<string>>>()

function reservedIds(ctx: GatewayContext, sessionId: string): Set<string> {
  const bySession = reservations.get(ctx.db) ?? new Map<string, Set<string>>()
  reservations.set(ctx.db, bySession)
  const ids = bySession.get(sessionId) ?? new Set<string>()
  bySession.set(sessionId, ids)
  return ids
}

/** Renames or recolours a label (404 for one the session does not have); the rest stays. */
export async function updateLabel(
  ctx: GatewayContext,
  { workspaceId, labelId, input }: { workspaceId: string; labelId: string; input: UpdateLabelInput },
) {
  const { session, handle } = await labelSession(ctx, workspaceId, input.sessionId)
  const known = findLabel(ctx, session.id, labelId)
  const label: Label = {
    id: known.id,
    name: input.name ?? known.name,
    color: input.color ?? known.color,
    ...(known.predefinedId ? { predefinedId: known.predefinedId } : {}),
  }
  return save(ctx, session.id, handle, label, 'the label change')
}

async function save(
  ctx: GatewayContext,
  sessionId: string,
  handle: Awaited<ReturnType<typeof labelSession>>['handle'],
  label: Label,
  what: string,
) {
  try {
    await handle.labels.save(label)
  } catch (error) {
    throw labelFailure(error, what)
  }
  onLabelChange(ctx, sessionId, { kind: 'edited', label })
  return { sessionId, label: labelView(findLabel(ctx, sessionId, label.id)) }
}
