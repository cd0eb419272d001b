/** One session: its name, status and actions, then the section its tab names. */
import type { Child } from 'hono/jsx'
import { Badge, ErrorText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { formatDateTime, translator } from '../../i18n'
import { SESSION_TABS, type SessionTab, href } from '../../router'
import { type Session, refreshSessions } from '../../sessions'
import { ChatwootTab } from '../chatwoot/chatwoot-tab'
import { ContactsTab } from '../contacts/contacts-tab'
import { EventsTab } from '../events/events-tab'
import { GroupsTab } from '../groups/groups-tab'
import { InboxTab } from '../inbox/inbox-tab'
import { WebhooksTab } from '../webhooks/webhooks-tab'
import { Overview } from './overview'
import { texts } from './texts'

const t = translator(texts)

const TAB_LABELS: Record<SessionTab, Parameters<typeof t>[0]> = {
  overview: 'tabOverview',
  inbox: 'tabInbox',
  groups: 'tabGroups',
  contacts: 'tabContacts',
  webhooks: 'tabWebhooks',
  chatwoot: 'tabChatwoot',
  events: 'tabEvents',
}

export function SessionPage({ session, tab, item }: { session: Session; tab: SessionTab; item: string | null }) {
  const [error, run] = useAction()
  const id = session.sessionId
  const info = [
    session.number && t('number', { number: session.number }),
    session.statusReason && t('reason', { reason: session.statusReason }),
    session.lastSeen && t('lastSeen', { time: formatDateTime(session.lastSeen) }),
  ].filter(Boolean)
  const views: Record<SessionTab, () => Child> = {
    overview: () => <Overview session={session} />,
    inbox: () => <InboxTab session={session} chatId={item} />,
    groups: () => <GroupsTab session={session} groupId={item} />,
    contacts: () => <ContactsTab session={session} />,
    webhooks: () => <WebhooksTab session={session} />,
    chatwoot: () => <ChatwootTab session={session} />,
    events: () => <EventsTab session={session} />,
  }
  return (
    <div>
      <section>
        <h2>
          {session.sessionName} <span id="detail-status">{<Badge status={session.status} />}</span>
        </h2>
        <p class="muted" id="detail-info">
          {info.join(' · ')}
        </p>
        <div class="row">
          <button
            type="button"
            class="plain"
            id="restart"
            onClick={() =>
              run(async () => {
                await api('POST', path`/v1/session/${id}/restart`)
                await refreshSessions()
              })
            }
          >
            {t('restart')}
          </button>
          <button
            type="button"
            class="danger"
            id="disconnect"
            onClick={() => {
              if (!confirm(t('confirmDisconnect', { name: session.sessionName }))) return
              void run(async () => {
                await api('DELETE', path`/v1/session/disconnect/${id}`)
                await refreshSessions()
              })
            }}
          >
            {t('disconnect')}
          </button>
        </div>
        <ErrorText id="detail-error" message={error} />
        <nav class="tabs" aria-label={t('sessionTabs')}>
          {SESSION_TABS.map((name) => (
            <a
              href={href({ screen: 'session', sessionId: id, tab: name, item: null })}
              id={`tab-${name}`}
              aria-current={name === tab ? 'page' : undefined}
            >
              {t(TAB_LABELS[name])}
            </a>
          ))}
        </nav>
      </section>
      {views[tab]()}
    </div>
  )
}
