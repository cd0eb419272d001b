/**
 * Lists, adds and removes a session's other webhooks (/v1/session/{id}/webhooks), showing a new
 * webhook's secret the one time the API answers it.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import type { WebhookView } from '../../../schemas/webhook-subscription'
import { chosenEventTypes, EventTypeChoices } from '../../components/event-types'
import { CopyButton, ErrorText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import type { Session } from '../../sessions'
import { texts } from './texts'

const t = translator(texts)

export function MoreWebhooks({ session }: { session: Session }) {
  const [webhooks, setWebhooks] = useState<WebhookView[] | null>(null)
  const [secret, setSecret] = useState<{ text: string; value: string } | null>(null)
  const [error, run] = useAction()
  const base = path`/v1/session/${session.sessionId}/webhooks`
  const load = () => run(async () => setWebhooks((await api<{ webhooks: WebhookView[] }>('GET', base)).webhooks))
  useEffect(() => {
    void load()
  }, [session.sessionId])
  return (
    <section>
      <h2>{t('moreWebhooks')}</h2>
      <ul class="webhooks" id="webhooks">
        {(webhooks ?? []).map((w) => (
          <li data-id={w.webhookId}>
            <span>
              {w.url}
              <br />
              <small class="muted">
                {[w.description, (w.events ?? [t('everyType')]).join(', ')].filter(Boolean).join(' · ')}
              </small>
            </span>
            <button
              type="button"
              class="plain remove-webhook"
              onClick={() => {
                if (!confirm(t('confirmRemove', { url: w.url }))) return
                void run(async () => {
                  await api('DELETE', `${base}/${encodeURIComponent(w.webhookId)}`)
                  await load()
                })
              }}
            >
              {t('remove')}
            </button>
          </li>
        ))}
        {webhooks?.length === 0 ? <li class="muted">{t('noneBeside')}</li> : null}
      </ul>
      <form
        onSubmit={(event: Event) => {
          event.preventDefault()
          const form = event.currentTarget as HTMLFormElement
          const fields = new FormData(form)
          const body: Record<string, unknown> = { url: String(fields.get('url')) }
          const events = chosenEventTypes(form)
          if (events) body.events = events
          const description = String(fields.get('description') ?? '').trim()
          if (description) body.description = description
          void run(async () => {
            const created = await api<WebhookView & { secret: string }>('POST', base, body)
            form.reset()
            setSecret({ text: t('secretOf', { url: created.url }) + created.secret, value: created.secret })
            await load()
          })
        }}
      >
        <label>
          {t('url')}
          <input id="new-webhook-url" name="url" type="url" required placeholder="https://…" />
        </label>
        <EventTypeChoices id="new-webhook-events" legend={t('eventTypes')} chosen={null} />
        <label>
          {t('description')}
          <input id="new-webhook-description" name="description" maxlength={500} />
        </label>
        <div class="row">
          <button type="submit" id="add-webhook">
            {t('add')}
          </button>
        </div>
      </form>
      <p class="secret">
        <code id="new-webhook-secret">{secret?.text ?? ''}</code>
        {secret ? <CopyButton value={secret.value} /> : null}
      </p>
      <ErrorText id="webhooks-error" message={error} />
    </section>
  )
}
