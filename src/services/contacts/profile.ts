import type { BusinessProfile, ContactProfile } from '../../engine/whatsapp/port/contacts'
import { GatewayError } from '../../errors'
import type { BusinessProfileView, ContactProfileView } from '../../schemas/contact-profile'
import type { PersonAddress } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { noAccount } from './no-account'
import { pushNameOf } from './names'

/** Minutes after midnight as HH:MM. */
const clock = (minutes: number | undefined) =>
  minutes === undefined
    ? null
    : `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

function businessView(business: BusinessProfile): BusinessProfileView {
  return {
    description: business.description ?? null,
    category: business.category ?? null,
    email: business.email ?? null,
    website: business.website ?? null,
    address: business.address ?? null,
    hours: business.hours
      ? {
          timezone: business.hours.timezone ?? null,
          days: business.hours.days.map((day) => ({
            day: day.day,
            mode: day.mode,
            open: clock(day.openMinutes),
            close: clock(day.closeMinutes),
          })),
        }
      : null,
  }
}

/** A profile as GET /v1/contact/{phone}/profile answers it, with the push name the session learned. */
export function profileView(profile: ContactProfile, name: string | undefined): ContactProfileView {
  return {
    phone: profile.phone ?? null,
    lid: profile.lid ? `${profile.lid}@lid` : null,
    name: name ?? null,
    about: profile.about?.text ?? null,
    aboutSetAt: profile.about?.setAt ? profile.about.setAt.toISOString() : null,
    pictureUrl: profile.pictureUrl ?? null,
    business: profile.business ? businessView(profile.business) : null,
  }
}

/**
 * What WhatsApp shows the session's account of someone, asked now (nothing cached but the push
 * name, which WhatsApp tells only with messages). Not a contact check: it counts against no
 * quota, only the rate limit every route has. Someone without a WhatsApp account is 404.
 */
export async function contactProfile(
  ctx: GatewayContext,
  { workspaceId, sessionId, phone }: { workspaceId: string; sessionId: string; phone: PersonAddress },
): Promise<ContactProfileView> {
  const session = findSession(ctx, workspaceId, sessionId)
  const handle = connectedHandle(ctx, session)
  let profile: ContactProfile | null
  try {
    profile = await handle.contacts.profile(phone.jid)
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the profile query in time',
      upstream: 'WhatsApp answered the profile query with an error',
      not_connected: 'The session went offline before WhatsApp answered',
    })
  }
  if (!profile) throw new GatewayError('not_found', noAccount(phone), { field: 'phone' })
  return profileView(profile, pushNameOf(ctx, session.id, profile))
}
