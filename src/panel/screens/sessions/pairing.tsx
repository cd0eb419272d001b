/**
 * A pending session's QR (or pairing code), kept fresh: read again every few seconds and on each
 * session.qr event (a session whose webhookEvents leave session.qr out has no event to say so),
 * with its age shown so the user knows it rotates.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { onEvent } from '../../live'
import { type Session, pairingCodes, qrImages } from '../../sessions'
import { useStore } from '../../store'
import { texts } from './texts'

const t = translator(texts)
const QR_REFRESH_MS = 5000

export function Pairing({ session }: { session: Session }) {
  const qr = useStore(qrImages)[session.sessionId]
  const code = useStore(pairingCodes)[session.sessionId]
  const [shownAt, setShownAt] = useState(Date.now())
  const [now, setNow] = useState(Date.now())
  const pending = session.status === 'pending'

  useEffect(() => {
    if (!pending) return
    const read = async () => {
      const current = await api<{ qrImage: string | null }>('GET', path`/v1/session/${session.sessionId}/qr`).catch(
        () => null,
      )
      if (current?.qrImage && current.qrImage !== qrImages.get()[session.sessionId]) {
        qrImages.update((all) => ({ ...all, [session.sessionId]: current.qrImage as string }))
        setShownAt(Date.now())
      }
    }
    void read()
    const timer = setInterval(read, QR_REFRESH_MS)
    const ticker = setInterval(() => setNow(Date.now()), 1000)
    const off = onEvent((event) => {
      if (event.type === 'session.qr' && event.sessionId === session.sessionId) void read()
    })
    return () => {
      clearInterval(timer)
      clearInterval(ticker)
      off()
    }
  }, [session.sessionId, pending])

  if (!pending) return <div id="pairing" />
  return (
    <div id="pairing">
      <p>{t('scanHint')}</p>
      {qr ? (
        <>
          <img class="qr" id="qr" alt={t('qrAlt')} src={qr} />
          <p class="muted small" id="qr-age">
            {t('qrRotates', { age: Math.max(0, Math.round((now - shownAt) / 1000)) })}
          </p>
        </>
      ) : (
        <p class="muted">{t('waitingQr')}</p>
      )}
      {code ? (
        <p>
          {t('orCode')}
          <span class="code" id="pairing-code">
            {code}
          </span>
        </p>
      ) : null}
    </div>
  )
}
