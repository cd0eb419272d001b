import type { PrivacySettings } from '../../engine/whatsapp/port/contacts'
import type { UpdatePrivacyInput } from '../../schemas/privacy'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from './connected'
import { findSession } from './view'

const SETTINGS = ['lastSeen', 'online', 'profilePhoto', 'about', 'groups', 'readReceipts', 'calls'] as const

const view = (sessionId: string, settings: Partial<PrivacySettings>) => ({
  sessionId,
  privacy: Object.fromEntries(SETTINGS.map((name) => [name, settings[name] ?? null])) as {
    [K in keyof PrivacySettings]: PrivacySettings[K] | null
  },
})

/** The account's privacy settings, asked of WhatsApp (a change made on the phone shows at once). */
export async function getPrivacy(ctx: GatewayContext, args: { workspaceId: string; sessionId: string }) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    return view(session.id, await handle.privacy.get())
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the privacy query in time',
      upstream: 'WhatsApp answered the privacy query with an error',
      not_connected: 'The session went offline before WhatsApp answered',
    })
  }
}

/**
 * Changes the settings given (one WhatsApp request each, in the order of the answer) and answers
 * them all as WhatsApp then has them. A failure part way leaves the earlier ones applied: the
 * error says so, and GET tells the state.
 */
export async function updatePrivacy(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; input: UpdatePrivacyInput },
) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    await handle.privacy.set(args.input)
    return view(session.id, await handle.privacy.get())
  } catch (error) {
    const partly = ' (settings before the failing one may have applied: GET /v1/session/{id}/privacy tells)'
    throw engineFailure(error, {
      timeout: `WhatsApp did not answer a privacy change in time${partly}`,
      upstream: `WhatsApp refused a privacy change${partly}`,
      not_connected: `The session went offline during the change${partly}`,
    })
  }
}
