/** One session: its name, status and actions (session-actions.tsx), then the section its tab names. */
import type { Child } from 'hono/jsx'
import { Badge } from '../../components/ui'
import { formatDateTime, translator } from '../../i18n'
import { SESSION_TABS, type SessionTab, href } from '../../router'
import type { Session } from '../../sessions'
import { ChatwootTab } from '../chatwoot/chatwoot-tab'
import { ContactsTab } from '../contacts/contacts-tab'
import { EventsTab } from '../events/events-tab'
import { GroupsTab } from '../groups/groups-tab'
import { InboxTab } from '../inbox/inbox-tab'
import { WebhooksTab } from '../webhooks/webhooks-tab'
import { Overview } from './overview'
import { SessionActions } from './session-actions'
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
        <SessionActions session={session} />
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
