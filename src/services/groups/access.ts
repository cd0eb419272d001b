import type { Session } from '../../db/schema'
import type { GroupInfo } from '../../engine/whatsapp/port/groups'
import type { SessionHandle } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import type { PhoneNumber } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { validationError } from '../validation-error'
import { ownRole } from './self'
import { storedGroup } from './store'

export interface GroupSession {
  session: Session
  handle: SessionHandle
}

/**
 * A connected session of the workspace whose group store holds this login's groups: 404 for
 * another workspace's, 409 offline. Right after a login it waits for the one group query.
 */
export async function groupSession(ctx: GatewayContext, workspaceId: string, sessionId: string): Promise<GroupSession> {
  const session = findSession(ctx, workspaceId, sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    await handle.groups.synced()
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the list of groups of this login in time; try again',
      upstream: 'WhatsApp answered the list of groups with an error; try again',
      not_connected: 'The session went offline; nothing was done',
    })
  }
  return { session, handle }
}

/** A group the account is in, from the store; any other id is 404, so nothing leaks. */
export function knownGroup(ctx: GatewayContext, session: Session, groupId: string): GroupInfo {
  const group = storedGroup(ctx.db, session.id, groupId)
  if (!group) throw new GatewayError('not_found', `Group "${groupId}" is not one of this session's groups`)
  return group
}

/**
 * Admin-only actions are refused from the store, before WhatsApp is asked: it would refuse them
 * too, and the store follows every promotion and demotion. (When WhatsApp refuses one anyway,
 * see groupFailure.)
 */
export function requireAdmin(session: Session, group: GroupInfo, only: string): void {
  if (ownRole(session, group.participants) !== null) return
  throw new GatewayError('forbidden', `The account is not an admin of group ${group.jid}: only admins ${only}`, {
    groupId: group.jid,
  })
}

/** WhatsApp adds the creator itself, and the account leaves by /leave: its own number is a mistake. */
export function refuseOwnNumber(session: Session, phones: PhoneNumber[], field: string, why: string): void {
  const index = phones.findIndex((phone) => phone.digits === session.number)
  if (index === -1) return
  throw validationError([{ path: `${field}.${index}`, message: `the session's own number; ${why}` }])
}
