/**
 * The first screen: the workspace's API key (and the deployment key where the operator set one),
 * or, behind "Operator sign-in", the operator's ADMIN_API_KEY for the Admin screen.
 */
import { useState } from 'hono/jsx/dom'
import { ErrorText } from '../../components/ui'
import { translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

type SignInHandler = (key: string, deploymentKey: string) => Promise<string | null>

export function SignIn({
  message,
  onSignIn,
  onAdminSignIn,
}: {
  message: string | null
  onSignIn: SignInHandler
  onAdminSignIn: SignInHandler
}) {
  const [error, setError] = useState<string | null>(message)
  const [operator, setOperator] = useState(false)
  const switchTo = (next: boolean) => {
    setError(null)
    setOperator(next)
  }
  return (
    <main id="main" class="single">
      <section>
        <h2>{operator ? t('operatorHeading') : t('heading')}</h2>
        <p class="muted">{operator ? t('operatorIntro') : t('keyStays')}</p>
        <form
          onSubmit={async (event: Event) => {
            event.preventDefault()
            const form = new FormData(event.currentTarget as HTMLFormElement)
            const key = String(form.get('key')).trim()
            const deploymentKey = String(form.get('deploymentKey')).trim()
            setError(await (operator ? onAdminSignIn : onSignIn)(key, deploymentKey))
          }}
        >
          {operator ? (
            <label>
              {t('adminKey')}
              <input id="admin-key" name="key" type="password" autocomplete="off" required />
            </label>
          ) : (
            <label>
              {t('apiKey')}
              <input id="api-key" name="key" type="password" autocomplete="off" required placeholder="wag_…" />
            </label>
          )}
          <label>
            {t('deploymentKey')}
            <input id="deployment-key" name="deploymentKey" type="password" autocomplete="off" />
          </label>
          <div class="row">
            <button type="submit" id="sign-in">
              {t('submit')}
            </button>
            <button type="button" class="plain" id="operator-sign-in" onClick={() => switchTo(!operator)}>
              {operator ? t('workspaceSignIn') : t('operatorSignIn')}
            </button>
          </div>
          <ErrorText id="sign-in-error" message={error} />
        </form>
        {operator ? null : (
          <p class="muted small">{t('firstKey', { command: 'npm run -s cli -- key create <workspace>' })}</p>
        )}
      </section>
    </main>
  )
}
