/** The first screen: the workspace's API key (and the deployment key where the operator set one). */
import { useState } from 'hono/jsx/dom'
import { ErrorText } from '../../components/ui'
import { translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

export function SignIn({
  message,
  onSignIn,
}: {
  message: string | null
  onSignIn: (key: string, deploymentKey: string) => Promise<string | null>
}) {
  const [error, setError] = useState<string | null>(message)
  return (
    <main id="main" class="single">
      <section>
        <h2>{t('heading')}</h2>
        <p class="muted">{t('keyStays')}</p>
        <form
          onSubmit={async (event: Event) => {
            event.preventDefault()
            const form = new FormData(event.currentTarget as HTMLFormElement)
            setError(await onSignIn(String(form.get('key')).trim(), String(form.get('deploymentKey')).trim()))
          }}
        >
          <label>
            {t('apiKey')}
            <input id="api-key" name="key" type="password" autocomplete="off" required placeholder="wag_…" />
          </label>
          <label>
            {t('deploymentKey')}
            <input id="deployment-key" name="deploymentKey" type="password" autocomplete="off" />
          </label>
          <div class="row">
            <button type="submit">{t('submit')}</button>
          </div>
          <ErrorText id="sign-in-error" message={error} />
        </form>
        <p class="muted small">{t('firstKey', { command: 'npm run -s cli -- key create <workspace>' })}</p>
      </section>
    </main>
  )
}
