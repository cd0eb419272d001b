/**
 * Looks a number (or LID) up: its profile (free of quota), or whether it is on WhatsApp at all
 * (POST /v1/contact/check, which counts against the daily quota: the form says so), and blocks or
 * unblocks whoever is shown.
 */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { ContactProfileView } from '../../../schemas/contact-profile'
import { ErrorText, StatusText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { language, translator } from '../../i18n'
import type { Session } from '../../sessions'
import { type Blocking, isBlocked } from './blocking'
import { ProfileFacts } from './profile-facts'
import { texts } from './texts'

const t = translator(texts)

interface CheckAnswer {
  results: { phone: string; exists: boolean }[]
}

export function LookUp({ session, blocking }: { session: Session; blocking: Blocking }) {
  const [profile, setProfile] = useState<ContactProfileView | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [error, run, busy] = useAction()
  const input = useRef<HTMLInputElement | null>(null)
  const sessionId = session.sessionId
  const typed = () => input.current?.value.trim() ?? ''
  // The plan's quota, so the note beside the check says how many numbers a day it allows.
  const [limit, setLimit] = useState<number | null>(null)
  useEffect(() => {
    api<{ limits: { dailyContactChecks: number } }>('GET', '/v1/workspace').then(
      (workspace) => setLimit(workspace.limits.dailyContactChecks),
      () => setLimit(null),
    )
  }, [])

  const showProfile = (event: Event) => {
    event.preventDefault()
    const phone = typed()
    setStatus(t('asking'))
    setProfile(null)
    void run(async () => {
      try {
        setProfile(await api<ContactProfileView>('GET', path`/v1/contact/${phone}/profile?sessionId=${sessionId}`))
      } finally {
        setStatus(null)
      }
    })
  }

  const check = () => {
    const phone = typed()
    if (!input.current?.reportValidity()) return
    setStatus(t('asking'))
    void run(async () => {
      try {
        const answer = await api<CheckAnswer>('POST', '/v1/contact/check', { sessionId, phones: [phone] })
        const result = answer.results[0]
        setStatus(t(result?.exists ? 'onWhatsApp' : 'notOnWhatsApp', { phone }))
      } catch (failure) {
        setStatus(null)
        throw failure
      }
    })
  }

  const blocked = profile && blocking.list ? isBlocked(blocking.list, profile) : null
  return (
    <section id="contact-look-up">
      <h2>{t('lookUp')}</h2>
      <form onSubmit={showProfile}>
        <label>
          {t('phone')}
          <input
            id="contact-phone"
            ref={input}
            name="phone"
            required
            maxlength={40}
            inputmode="tel"
            autocomplete="off"
            placeholder={t('phonePlaceholder')}
          />
        </label>
        <p class="muted small" id="contact-check-hint">
          {t('checkHint', { limit: limit === null ? '…' : limit.toLocaleString(language.get()) })}
        </p>
        <div class="row">
          <button type="submit" id="contact-show" disabled={busy}>
            {t('showProfile')}
          </button>
          <button
            type="button"
            class="plain"
            id="contact-check"
            disabled={busy}
            aria-describedby="contact-check-hint"
            onClick={check}
          >
            {t('check')}
          </button>
        </div>
      </form>
      <StatusText id="contact-status" message={status} />
      <ErrorText id="contact-error" message={error} />
      {profile ? (
        <div id="contact-shown">
          <h3>{t('profile')}</h3>
          <ProfileFacts profile={profile} blocked={blocked} />
          <div class="row">
            {blocked ? (
              <button
                type="button"
                class="plain"
                id="contact-unblock"
                disabled={blocking.busy}
                onClick={() => blocking.change(profile, 'unblock')}
              >
                {t('unblock')}
              </button>
            ) : (
              <button
                type="button"
                class="danger"
                id="contact-block"
                disabled={blocking.busy || blocked === null}
                onClick={() => blocking.change(profile, 'block')}
              >
                {t('block')}
              </button>
            )}
          </div>
        </div>
      ) : null}
    </section>
  )
}
