/**
 * The session's delivery log (GET /v1/webhooks/deliveries): which delivery each waits behind,
 * which were replayed, retry where it means something, replay the last hour. A
 * delivery's outcome makes no event of its own (a retried one turns delivered in silence), so
 * while one is due within seconds the log is read again shortly.
 */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { DeliveryView } from '../../../schemas/webhook'
import { Badge, ErrorText, TableBox, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { formatDateTime, formatTime, translator } from '../../i18n'
import { onEvent } from '../../live'
import type { Session } from '../../sessions'
import { texts } from './texts'

const t = translator(texts)
const DUE_SOON_MS = 10_000

/**
 * Where a retry changes something: a failed delivery goes out again; the delivery a webhook is
 * stuck on (pending, tried, waiting out its backoff) goes now. A delivered one is the replay's job,
 * and one waiting behind another would still wait (a retry keeps its place in the queue).
 */
const retryAction = (d: DeliveryView): 'retry' | 'retryNow' | null =>
  d.status === 'failed' ? 'retry' : d.status === 'pending' && !d.waitingFor && d.attempts > 0 ? 'retryNow' : null

export function Deliveries({ session }: { session: Session }) {
  const [deliveries, setDeliveries] = useState<DeliveryView[]>([])
  const [error, run] = useAction()
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const sessionId = session.sessionId

  const load = async () => {
    const page = await api<{ deliveries: DeliveryView[] }>(
      'GET',
      `/v1/webhooks/deliveries?limit=50&sessionId=${encodeURIComponent(sessionId)}`,
    )
    setDeliveries(page.deliveries)
    const dueSoon = (d: DeliveryView) =>
      d.status === 'pending' && (!d.nextAttemptAt || Date.parse(d.nextAttemptAt) - Date.now() < DUE_SOON_MS)
    if (page.deliveries.some(dueSoon)) reloadSoon(2000)
  }
  const reloadSoon = (ms = 300) => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => void run(load), ms)
  }

  useEffect(() => {
    void run(load)
    const off = onEvent((event) => event.sessionId === sessionId && reloadSoon())
    return () => {
      off()
      if (timer.current) clearTimeout(timer.current)
    }
  }, [sessionId])

  return (
    <section>
      <h2>{t('deliveries')}</h2>
      <div class="row">
        <button
          type="button"
          class="plain"
          id="replay"
          onClick={() =>
            run(async () => {
              await api('POST', '/v1/webhooks/replay', {
                sessionId,
                since: new Date(Date.now() - 3600_000).toISOString(),
              })
              await load()
            })
          }
        >
          {t('replayHour')}
        </button>
      </div>
      <TableBox label={t('deliveries')}>
        <table>
          <thead>
            <tr>
              <th>{t('colTime')}</th>
              <th>{t('colEvent')}</th>
              <th>{t('colStatus')}</th>
              <th>{t('colTries')}</th>
              <th>{t('colLastError')}</th>
              <th>{t('colNext')}</th>
              <th />
            </tr>
          </thead>
          <tbody id="deliveries">
            {deliveries.map((d) => {
              const retry = retryAction(d)
              const event = `${d.type} #${d.sequence}`
              return (
                <tr data-id={d.deliveryId} data-sequence={d.sequence} data-replay={d.replay ? 'true' : 'false'}>
                  <td>{formatTime(d.createdAt)}</td>
                  <td>{event}</td>
                  <td>
                    <Badge status={d.status} />
                    {d.replay ? <span class="tag replay">{t('replayed')}</span> : null}
                  </td>
                  <td>{d.attempts}</td>
                  <td class="text">
                    {d.lastError ?? (d.lastStatusCode ? t('httpStatus', { code: d.lastStatusCode }) : '')}
                  </td>
                  <td class="next">
                    {d.waitingFor
                      ? t('waitingFor', { sequence: d.waitingFor.sequence })
                      : d.status === 'pending'
                        ? formatDateTime(d.nextAttemptAt)
                        : ''}
                  </td>
                  <td>
                    {retry ? (
                      <button
                        type="button"
                        class="plain retry"
                        aria-label={t('retryLabel', { action: t(retry), event })}
                        onClick={() =>
                          run(async () => {
                            await api(
                              'POST',
                              `${path`/v1/webhooks/deliveries/${d.deliveryId}/retry`}?sessionId=${encodeURIComponent(sessionId)}`,
                              {},
                            )
                            await load()
                          })
                        }
                      >
                        {t(retry)}
                      </button>
                    ) : null}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </TableBox>
      <ErrorText id="deliveries-error" message={error} />
    </section>
  )
}
