/** The main screen: the sessions on the left, the selected one's page on the right. */
import { useEffect } from 'hono/jsx/dom'
import { Badge, StatusText } from '../../components/ui'
import { translator } from '../../i18n'
import { follow } from '../../live'
import { type Route, href } from '../../router'
import { sessions } from '../../sessions'
import { useStore } from '../../store'
import { NewSession } from './new-session'
import { deletedNotice } from './session-actions'
import { SessionPage } from './session-page'
import { texts } from './texts'
import { useSessionEvents } from './use-session-events'

const t = translator(texts)

export function SessionsScreen({ route }: { route: Route }) {
  const list = useStore(sessions)
  const notice = useStore(deletedNotice)
  const selected = route.screen === 'session' ? route.sessionId : null
  useSessionEvents()
  // On the edge the stream is per session: point it at the one shown.
  useEffect(() => follow(selected), [selected])
  // A deletion's summary stays until another session is opened.
  useEffect(() => {
    if (selected) deletedNotice.set(null)
  }, [selected])
  const session = list.find((s) => s.sessionId === selected)
  return (
    <main id="main" tabindex={-1}>
      <div class="aside">
        <section>
          <h2>{t('sessions')}</h2>
          <ul class="sessions" id="sessions">
            {list.map((s) => (
              <li data-id={s.sessionId} class={s.sessionId === selected ? 'selected' : ''}>
                <a
                  href={href({ screen: 'session', sessionId: s.sessionId, tab: 'overview', item: null })}
                  aria-current={s.sessionId === selected ? 'page' : undefined}
                >
                  <span>
                    {s.sessionName}
                    <br />
                    <small class="muted">{s.number ?? ''}</small>
                  </span>
                  <Badge status={s.status} />
                </a>
              </li>
            ))}
            {list.length === 0 ? <li class="muted">{t('noSessions')}</li> : null}
          </ul>
        </section>
        <NewSession />
      </div>
      <div id="detail">
        {session && route.screen === 'session' ? (
          <SessionPage session={session} tab={route.tab} item={route.item} />
        ) : (
          <section>
            <StatusText id="deleted-notice" message={notice} />
            <p class="muted">{selected ? t('unknownSession') : t('selectOrConnect')}</p>
          </section>
        )}
      </div>
    </main>
  )
}
