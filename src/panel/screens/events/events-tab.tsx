/**
 * The session's live event monitor: every event the stream brings, newest first, filtered by type
 * and text, frozen while paused (events keep being recorded), each one's JSON a click away.
 */
import { useState } from 'hono/jsx/dom'
import { webhookEventTypes } from '../../../shared/event-types'
import { StatusText } from '../../components/ui'
import { formatTime, translator } from '../../i18n'
import type { GatewayEvent } from '../../live'
import type { Session } from '../../sessions'
import { useStore } from '../../store'
import { EVENT_LOG_LIMIT, eventLog, matches, summarize } from './event-log'
import { texts } from './texts'

const t = translator(texts)
const NONE: GatewayEvent[] = []

export function EventsTab({ session }: { session: Session }) {
  const live = useStore(eventLog)[session.sessionId] ?? NONE
  const [type, setType] = useState('')
  const [text, setText] = useState('')
  const [frozen, setFrozen] = useState<GatewayEvent[] | null>(null)
  const [cleared, setCleared] = useState<GatewayEvent | null>(null)

  const upTo = (list: GatewayEvent[], stop: GatewayEvent | null) => {
    const at = stop ? list.indexOf(stop) : -1
    return at === -1 ? list : list.slice(0, at)
  }
  const all = upTo(frozen ?? live, cleared)
  const shown = all.filter((event) => matches(event, type, text.trim()))
  const newSincePause = frozen ? upTo(live, frozen[0] ?? null).length : 0
  // Types the gateway has, plus any other one that arrived (a newer gateway's).
  const types = [...new Set([...webhookEventTypes, ...live.map((event) => event.type)])]

  return (
    <section id="events">
      <h2>{t('heading')}</h2>
      <p class="muted small">{t('intro', { limit: EVENT_LOG_LIMIT })}</p>
      <div class="row events-filters">
        <label>
          {t('type')}
          <select id="events-type" onChange={(event: Event) => setType((event.target as HTMLSelectElement).value)}>
            <option value="" selected={type === ''}>
              {t('anyType')}
            </option>
            {types.map((name) => (
              <option value={name} selected={type === name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('search')}
          <input
            id="events-text"
            type="search"
            value={text}
            onInput={(event: Event) => setText((event.target as HTMLInputElement).value)}
          />
        </label>
        <button
          type="button"
          class="plain"
          id="events-pause"
          aria-pressed={frozen ? 'true' : 'false'}
          onClick={() => setFrozen(frozen ? null : live)}
        >
          {frozen ? t('resume') : t('pause')}
        </button>
        <button type="button" class="plain" id="events-clear" onClick={() => setCleared(live[0] ?? null)}>
          {t('clear')}
        </button>
      </div>
      <StatusText
        id="events-status"
        message={
          frozen
            ? t('pausedNew', { count: newSincePause })
            : all.length
              ? t('shown', { shown: shown.length, total: all.length })
              : null
        }
      />
      <ol class="event-log" id="event-log" aria-label={t('log')}>
        {shown.map((event) => (
          <li data-type={event.type} data-id={event.id ?? ''}>
            <details>
              <summary>
                <time datetime={event.timestamp}>{formatTime(event.timestamp)}</time> <code>{event.type}</code>{' '}
                <span class="muted">{summarize(event)}</span>
              </summary>
              <pre>{JSON.stringify(event, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
      {shown.length === 0 ? <p class="muted">{all.length ? t('noMatch') : t('none')}</p> : null}
    </section>
  )
}
