import { useState } from 'hono/jsx/dom'
/** The session's own webhook and options (PUT /v1/session/update/{id}), and its secret's rotation. */
import { chosenEventTypes, EventTypeChoices } from '../../components/event-types'
import { CopyButton, ErrorText, StatusText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { type Session, refreshSessions } from '../../sessions'
import { useStore } from '../../store'
import { shownSecret } from './new-session'
import { texts } from './texts'

const t = translator(texts)

export function Settings({ session }: { session: Session }) {
  const [error, run] = useAction()
  const [status, setStatus] = useState<string | null>(null)
  const secret = useStore(shownSecret)
  const update = (body: Record<string, unknown>) =>
    run(async () => {
      setStatus(null)
      const updated = await api<{ webhookSecret?: string }>('PUT', path`/v1/session/update/${session.sessionId}`, body)
      if (updated.webhookSecret)
        shownSecret.set({ sessionId: session.sessionId, text: t('newSecretOnce') + updated.webhookSecret })
      await refreshSessions()
      setStatus(t('saved'))
    })
  const secretText = secret?.sessionId === session.sessionId ? secret.text : ''
  return (
    <section>
      <h3>{t('webhook')}</h3>
      <form
        id="settings"
        onSubmit={(event: Event) => {
          event.preventDefault()
          const form = event.currentTarget as HTMLFormElement
          const fields = new FormData(form)
          const webhookUrl = String(fields.get('webhookUrl') ?? '').trim()
          void update({
            // Empty clears the URL only where there was one (the session then keeps its events in the outbox).
            ...(webhookUrl || session.webhookUrl ? { webhookUrl: webhookUrl || null } : {}),
            webhookMessages: fields.get('webhookMessages') === 'on',
            webhookEvents: chosenEventTypes(form),
            autoRejectCalls: fields.get('autoRejectCalls') === 'on',
          })
        }}
      >
        <label>
          {t('url')}
          <input id="webhook-url" name="webhookUrl" type="url" value={session.webhookUrl ?? ''} />
        </label>
        <label class="inline">
          <input id="webhook-messages" name="webhookMessages" type="checkbox" checked={session.webhookMessages} />
          {t('messageEvents')}
        </label>
        <EventTypeChoices id="webhook-events" legend={t('eventTypes')} chosen={session.webhookEvents} />
        <label class="inline">
          <input id="auto-reject" name="autoRejectCalls" type="checkbox" checked={session.autoRejectCalls} />
          {t('rejectCalls')}
        </label>
        <div class="row">
          <button type="submit" id="save-settings">
            {t('save')}
          </button>
          <button type="button" class="plain" id="rotate-secret" onClick={() => update({ rotateWebhookSecret: true })}>
            {t('rotateSecret')}
          </button>
        </div>
      </form>
      <p class="secret">
        <code id="secret">{secretText}</code>
        {secretText ? <CopyButton id="copy-secret" value={secretText.slice(secretText.indexOf(': ') + 2)} /> : null}
      </p>
      <StatusText id="settings-status" message={status} />
      <ErrorText id="settings-error" message={error} />
    </section>
  )
}
