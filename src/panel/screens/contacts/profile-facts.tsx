/**
 * A contact's profile as GET /v1/contact/{phone}/profile answers it. The photo is a URL on
 * WhatsApp's media servers: the panel's CSP loads images from its own origin only (and a request
 * elsewhere would tell WhatsApp's CDN who looks), so it says there is one and offers its link.
 */
import type { BusinessProfileView, ContactProfileView } from '../../../schemas/contact-profile'
import { CopyButton } from '../../components/ui'
import { formatDateTime, language, translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

// 1 January 2023 was a Sunday: the weekday names come from the browser, in the chosen language.
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']
const dayName = (day: string) => {
  const index = DAYS.indexOf(day)
  if (index < 0) return day
  return new Date(Date.UTC(2023, 0, 1 + index)).toLocaleDateString(language.get(), {
    weekday: 'short',
    timeZone: 'UTC',
  })
}

type Hours = NonNullable<BusinessProfileView['hours']>
const hoursLine = (day: Hours['days'][number]) => {
  const when =
    day.mode === 'open_24h'
      ? t('open24h')
      : day.mode === 'appointment_only'
        ? t('appointmentOnly')
        : `${day.open ?? '?'}–${day.close ?? '?'}`
  return `${dayName(day.day)} ${when}`
}

/** A business's public profile: rows of the profile's list, only those the business filled in. */
function BusinessFacts({ business }: { business: BusinessProfileView }) {
  const fields = [
    ['category', business.category],
    ['description', business.description],
    ['email', business.email],
    ['website', business.website],
    ['address', business.address],
  ] as const
  return (
    <>
      {fields.map(([key, value]) =>
        value ? (
          <>
            <dt>{t(key)}</dt>
            <dd class="prewrap" data-field={key}>
              {value}
            </dd>
          </>
        ) : null,
      )}
      {business.hours?.days.length ? (
        <>
          <dt>{t('hours')}</dt>
          <dd data-field="hours">
            <ul class="options">
              {business.hours.days.map((day) => (
                <li>{hoursLine(day)}</li>
              ))}
            </ul>
            {business.hours.timezone ? <small class="muted">{business.hours.timezone}</small> : null}
          </dd>
        </>
      ) : null}
    </>
  )
}

export function ProfileFacts({ profile, blocked }: { profile: ContactProfileView; blocked: boolean | null }) {
  return (
    <dl class="facts" id="contact-profile">
      <dt>{t('name')}</dt>
      <dd id="contact-name">{profile.name ?? t('noName')}</dd>
      <dt>{t('about')}</dt>
      <dd id="contact-about" class="prewrap">
        {profile.about
          ? profile.aboutSetAt
            ? t('aboutSince', { about: profile.about, time: formatDateTime(profile.aboutSetAt) })
            : profile.about
          : t('hidden')}
      </dd>
      <dt>{t('number')}</dt>
      <dd id="contact-number">{profile.phone ? `+${profile.phone}` : '—'}</dd>
      <dt>{t('lid')}</dt>
      <dd id="contact-lid">{profile.lid ?? '—'}</dd>
      <dt>{t('photo')}</dt>
      <dd id="contact-photo">
        {profile.pictureUrl ? (
          <>
            {`${t('photoKept')} `}
            <CopyButton id="contact-photo-copy" value={profile.pictureUrl} />
          </>
        ) : (
          t('hidden')
        )}
      </dd>
      <dt>{t('account')}</dt>
      <dd id="contact-kind">{profile.business ? t('businessAccount') : t('personal')}</dd>
      {profile.business ? <BusinessFacts business={profile.business} /> : null}
      {blocked === null ? null : (
        <>
          <dt>{t('blockState')}</dt>
          <dd id="contact-blocked">{blocked ? <span class="role blocked">{t('yes')}</span> : t('no')}</dd>
        </>
      )}
    </dl>
  )
}
