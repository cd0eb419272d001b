/** Connects a new session: a name, an optional webhook, QR or pairing code. */
import { useState } from 'hono/jsx/dom'
import { ErrorText, useAction } from '../../components/ui'
import { translator } from '../../i18n'
import { api } from '../../api'
import { navigate } from '../../router'
import { type Session, pairingCodes, qrImages, refreshSessions } from '../../sessions'
import { createStore } from '../../store'
import { texts } from './texts'

const t = translator(texts)

/** A secret the API answered once, shown on the session's page until the user leaves it. */
export const shownSecret = createStore<{ sessionId: string; text: string } | null>(null)

type Connected = Session & { qrImage?: string | null; pairingCode?: string | null; webhookSecret?: string | null }

export function NewSession() {
  const [error, run, busy] = useAction()
  const [mode, setMode] = useState('qr')
  return (
    <section>
      <h2>{t('newSession')}</h2>
      <form
        onSubmit={(event: Event) => {
          event.preventDefault()
          const form = event.currentTarget as HTMLFormElement
          const fields = new FormData(form)
          const body: Record<string, unknown> = { sessionName: fields.get('sessionName'), mode: fields.get('mode') }
          const webhookUrl = String(fields.get('webhookUrl') ?? '').trim()
          if (webhookUrl) body.webhookUrl = webhookUrl
          if (body.mode === 'pairing') body.pairingNumber = fields.get('pairingNumber')
          void run(async () => {
            const created = await api<Connected>('POST', '/v1/session/connect', body)
            form.reset()
            setMode('qr')
            if (created.qrImage) qrImages.update((all) => ({ ...all, [created.sessionId]: created.qrImage as string }))
            if (created.pairingCode)
              pairingCodes.update((all) => ({ ...all, [created.sessionId]: created.pairingCode as string }))
            if (created.webhookSecret)
              shownSecret.set({ sessionId: created.sessionId, text: t('secretOnce') + created.webhookSecret })
            await refreshSessions()
            navigate({ screen: 'session', sessionId: created.sessionId, tab: 'overview', item: null })
          })
        }}
      >
        <label>
          {t('name')}
          <input id="new-name" name="sessionName" required maxlength={100} />
        </label>
        <label>
          {t('webhookUrlOptional')}
          <input id="new-webhook" name="webhookUrl" type="url" placeholder="https://…" />
        </label>
        <label>
          {t('linkBy')}
          <select
            id="new-mode"
            name="mode"
            onChange={(event: Event) => setMode((event.target as HTMLSelectElement).value)}
          >
            <option value="qr">{t('qrCode')}</option>
            <option value="pairing">{t('pairingCode')}</option>
          </select>
        </label>
        <label hidden={mode !== 'pairing'}>
          {t('pairingNumber')}
          <input id="new-number" name="pairingNumber" required={mode === 'pairing'} inputmode="tel" />
        </label>
        <div class="row">
          <button type="submit" id="connect" disabled={busy}>
            {t('connect')}
          </button>
        </div>
        <ErrorText message={error} />
      </form>
    </section>
  )
}
