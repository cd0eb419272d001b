import { GatewayError } from '../../errors'
import type { OwnProfileView, UpdateOwnProfileInput } from '../../schemas/own-profile'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from './connected'
import { findSession } from './view'

type Field = 'about' | 'picture' | 'name'

/**
 * Changes the account's own about, photo and name (what its contacts see), one WhatsApp request
 * each, in that order. The photo is fetched and made ready first, and the name's precondition
 * checked, so a refused photo or an unready name sends nothing; a failure after a request took
 * names what did in details.applied. Setting the same value again is harmless.
 */
export async function updateOwnProfile(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; input: UpdateOwnProfileInput },
): Promise<OwnProfileView> {
  const { input } = args
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  connectedHandle(ctx, session)
  const picture =
    input.pictureUrl === undefined || input.pictureUrl === null
      ? input.pictureUrl
      : await ctx.media.profilePicture(await ctx.media.load(input.pictureUrl, 'pictureUrl'))
  // The fetch may have taken a while: the session must still be there
  const handle = connectedHandle(ctx, session)
  if (input.name !== undefined && !handle.contacts.canSetName) {
    throw new GatewayError(
      'upstream_error',
      'WhatsApp has not given this session the key for the account’s settings yet (the phone sends it shortly after linking); the name cannot change until then. Nothing was changed; try again later.',
      { reason: 'no_app_state_key' },
    )
  }
  const applied: Field[] = []
  const step = async (field: Field, change: () => Promise<void>) => {
    await change()
    applied.push(field)
  }
  try {
    if (input.about !== undefined) await step('about', () => handle.contacts.setAbout(input.about!))
    if (picture !== undefined) await step('picture', () => handle.contacts.setPicture(picture?.bytes ?? null))
    if (input.name !== undefined) await step('name', () => handle.contacts.setName(input.name!))
  } catch (error) {
    const failure = engineFailure(error, {
      timeout: 'WhatsApp did not confirm the change in time; it may still apply',
      upstream: 'WhatsApp refused the change',
      not_connected: 'The session went offline before WhatsApp answered',
    })
    if (applied.length > 0) Object.assign(failure.details, { applied })
    throw failure
  }
  return {
    sessionId: session.id,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.about !== undefined ? { about: input.about } : {}),
    ...(picture === null ? { picture: { removed: true, side: null, converted: false } } : {}),
    ...(picture ? { picture: { removed: false, side: picture.side, converted: picture.converted } } : {}),
  }
}
