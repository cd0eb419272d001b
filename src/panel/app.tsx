/**
 * The panel's frame: sign-in until a key is accepted, then the header (workspace, language, theme,
 * sign out), the unreachable banner and the screen the URL's hash names.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import { ApiError, api, credentials, onUnauthorized } from './api'
import { texts } from './components/texts'
import { LANGUAGES, type Language, chooseLanguage, language, translator } from './i18n'
import { follow, stopFollowing } from './live'
import { reachability } from './reachability'
import { navigate, route } from './router'
import { AdminScreen } from './screens/admin/admin'
import { clearEventLog } from './screens/events/event-log'
import { SessionsScreen } from './screens/sessions/sessions-screen'
import { signInAsAdmin } from './screens/sign-in/admin-sign-in'
import { SignIn } from './screens/sign-in/sign-in'
import { refreshSessions } from './sessions'
import { useStore } from './store'
import { theme, toggleTheme } from './theme'

const t = translator(texts)

interface Workspace {
  name: string
  plan: string
}

export function App() {
  const lang = useStore(language)
  const { reachable } = useStore(reachability)
  const [workspace, setWorkspace] = useState<Workspace | null>(null)
  // Signed in with the operator's admin key: only the Admin screen (no workspace, no event stream).
  const [admin, setAdmin] = useState(Boolean(credentials.adminKey()))
  const [signInMessage, setSignInMessage] = useState<string | null>(null)
  const [checking, setChecking] = useState(Boolean(credentials.key()))

  const signOut = (message: string | null = null) => {
    credentials.clear()
    stopFollowing()
    clearEventLog()
    setWorkspace(null)
    setAdmin(false)
    setSignInMessage(message)
  }

  const start = async (): Promise<string | null> => {
    try {
      const current = await api<Workspace>('GET', '/v1/workspace')
      setWorkspace(current)
      await refreshSessions()
      follow()
      return null
    } catch (error) {
      credentials.clear()
      return error instanceof ApiError && error.status === 401 ? t('signedOutRefused') : (error as Error).message
    } finally {
      setChecking(false)
    }
  }

  useEffect(() => {
    if (credentials.key()) void start().then((message) => message && setSignInMessage(message))
    return onUnauthorized(() => signOut(t('signedOutRefused')))
  }, [])

  return (
    <div class="app" key={lang}>
      <a class="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header>
        <h1>{t('title')}</h1>
        <span id="who">{admin ? t('admin') : workspace ? `${workspace.name} · ${workspace.plan}` : ''}</span>
        <HeaderControls />
        {workspace || admin ? (
          <button type="button" class="plain" id="sign-out" onClick={() => signOut()}>
            {t('signOut')}
          </button>
        ) : null}
      </header>
      <div class="banner" id="unreachable" role="status" hidden={reachable}>
        {reachable ? '' : t('unreachable')}
      </div>
      {admin ? (
        <AdminScreen />
      ) : workspace ? (
        <Screens />
      ) : checking ? (
        <main id="main" class="single">
          <p>{t('loading')}</p>
        </main>
      ) : (
        <SignIn
          message={signInMessage}
          onSignIn={(key, deploymentKey) => {
            credentials.save(key, deploymentKey)
            return start()
          }}
          onAdminSignIn={async (key, deploymentKey) => {
            const message = await signInAsAdmin(key, deploymentKey)
            if (!message) {
              setAdmin(true)
              navigate({ screen: 'admin' })
            }
            return message
          }}
        />
      )}
    </div>
  )
}

function HeaderControls() {
  const current = useStore(theme)
  return (
    <div class="row compact">
      <label class="inline">
        <span class="visually-hidden">{t('language')}</span>
        <select
          id="language"
          aria-label={t('language')}
          onChange={(event: Event) => chooseLanguage((event.target as HTMLSelectElement).value as Language)}
        >
          {Object.entries(LANGUAGES).map(([code, name]) => (
            <option value={code} selected={code === language.get()}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        class="plain"
        id="theme-toggle"
        aria-pressed={current === 'dark' ? 'true' : 'false'}
        onClick={toggleTheme}
      >
        {current === 'dark' ? t('lightMode') : t('darkMode')}
      </button>
    </div>
  )
}

/** A workspace's screens (#/admin without the admin key: the sessions, nothing selected). */
function Screens() {
  const current = useStore(route)
  return <SessionsScreen route={current} />
}
