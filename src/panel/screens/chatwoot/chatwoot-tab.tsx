/**
 * The session's Chatwoot integration (/v1/session/{id}/chatwoot): shown, turned on, changed and
 * turned off. The API answers the token masked and never again in full, so a change asks for it
 * again (left blank, the gateway keeps the saved one).
 */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { ChatwootConfigView } from '../../../schemas/chatwoot'
import { Badge, ErrorText, StatusText } from '../../components/ui'
import { ApiError, api, path } from '../../api'
import { formatDateTime, translator } from '../../i18n'
import { onEvent } from '../../live'
import type { Session } from '../../sessions'
import { texts } from './texts'

const t = translator(texts)
const OPTIONS = [
  ['signAgentName', true],
  ['reopenResolved', true],
  ['startPending', false],
  ['ignoreGroups', false],
] as const

type Loaded =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'refused'; message: string }
  | { kind: 'on'; config: ChatwootConfigView }

export function ChatwootTab({ session }: { session: Session }) {
  const route = path`/v1/session/${session.sessionId}/chatwoot`
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' })
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement | null>(null)
  const typedIn = useRef(false) // the form follows what is read only until the user types into it
  const lastState = useRef<string | null>(null)

  const show = (config: ChatwootConfigView | null) => {
    setLoaded(config ? { kind: 'on', config } : { kind: 'none' })
    if (!config) return
    // Announce a change of state once, not at every read.
    const line = config.state === 'error' ? t('fails', { error: config.lastError ?? '' }) : t('reached')
    if (lastState.current !== null && lastState.current !== line) setStatus(line)
    lastState.current = line
  }
  const load = async () => {
    try {
      show(await api<ChatwootConfigView>('GET', route))
    } catch (failure) {
      if (!(failure instanceof ApiError)) return setError(String(failure))
      if (failure.status === 404) return show(null)
      // The gateway refuses the routes themselves (the edge deployment): no form that can only fail.
      if (failure.status === 400) return setLoaded({ kind: 'refused', message: failure.message })
      if (failure.status !== 401) setError(failure.message)
    }
  }
  useEffect(() => {
    void load()
    // A delivery to Chatwoot is what turns the state error or ok (no event says so): read again after events.
    let timer: ReturnType<typeof setTimeout> | null = null
    const off = onEvent((event) => {
      if (event.sessionId !== session.sessionId) return
      if (timer) clearTimeout(timer)
      timer = setTimeout(load, 500)
    })
    const poll = setInterval(load, 5000)
    return () => {
      off()
      clearInterval(poll)
      if (timer) clearTimeout(timer)
    }
  }, [session.sessionId])

  const config = loaded.kind === 'on' ? loaded.config : null
  useEffect(() => {
    const element = form.current
    if (!element || !config || typedIn.current) return
    const set = (name: string, value: string) => {
      ;(element.elements.namedItem(name) as HTMLInputElement).value = value
    }
    set('url', config.url)
    set('accountId', String(config.accountId))
    set('inboxName', config.inboxName)
    for (const [name] of OPTIONS) (element.elements.namedItem(name) as HTMLInputElement).checked = config[name]
  }, [config])

  const turnOff = async () => {
    if (!confirm(t('confirmOff', { name: session.sessionName }))) return
    setError(null)
    try {
      await api('DELETE', route)
      setStatus(t('turnedOff'))
      show(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const element = event.currentTarget as HTMLFormElement
    const fields = new FormData(element)
    const body: Record<string, unknown> = {
      url: String(fields.get('url')).trim(),
      accountId: Number(fields.get('accountId')),
    }
    const token = String(fields.get('apiToken') ?? '')
    if (token) body.apiToken = token
    const inboxName = String(fields.get('inboxName') ?? '').trim()
    if (inboxName) body.inboxName = inboxName
    for (const [name] of OPTIONS) body[name] = fields.get(name) === 'on'
    setBusy(true)
    setError(null)
    setStatus(t('asking'))
    try {
      const saved = await api<ChatwootConfigView>('PUT', route, body)
      ;(element.elements.namedItem('apiToken') as HTMLInputElement).value = '' // never kept in the page once saved
      setStatus(config ? t('saved') : t('turnedOn', { inbox: saved.inboxName }))
      lastState.current = null
      typedIn.current = false
      show(saved)
    } catch (failure) {
      setStatus(null)
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section id="chatwoot">
      <h2>{t('heading')}</h2>
      <div id="chatwoot-current">
        {loaded.kind === 'none' ? <p class="muted">{t('notConnected')}</p> : null}
        {loaded.kind === 'refused' ? <p class="muted">{loaded.message}</p> : null}
        {config ? (
          <dl class="facts">
            <dt>{t('state')}</dt>
            <dd>
              <Badge status={config.state} />
            </dd>
            {config.lastError ? (
              <>
                <dt>{t('lastError')}</dt>
                <dd>
                  <span id="chatwoot-last-error">
                    {config.lastError} ({formatDateTime(config.lastErrorAt)})
                  </span>
                </dd>
              </>
            ) : null}
            <dt>{t('url')}</dt>
            <dd>{config.url}</dd>
            <dt>{t('account')}</dt>
            <dd>{String(config.accountId)}</dd>
            <dt>{t('inbox')}</dt>
            <dd>{`${config.inboxName} (#${config.inboxId})`}</dd>
            <dt>{t('apiToken')}</dt>
            <dd>
              <code id="chatwoot-token-shown">{config.apiToken}</code>
            </dd>
            <dt>{t('options')}</dt>
            <dd>
              <ul class="options">
                {OPTIONS.map(([name]) => (
                  <li data-option={name}>{`${t(name)}: ${config[name] ? t('yes') : t('no')}`}</li>
                ))}
              </ul>
            </dd>
          </dl>
        ) : null}
      </div>
      <form
        ref={form}
        hidden={loaded.kind === 'refused' || loaded.kind === 'loading'}
        onInput={() => {
          typedIn.current = true
        }}
        onSubmit={submit}
      >
        <label>
          {t('chatwootUrl')}
          <input id="chatwoot-url" name="url" type="url" required placeholder="https://chat.example.com" />
        </label>
        <label>
          {t('accountId')}
          <input id="chatwoot-account" name="accountId" type="number" min={1} step={1} required />
        </label>
        <label>
          {t('apiToken')}
          <input
            id="chatwoot-token"
            name="apiToken"
            type="password"
            autocomplete="off"
            required={!config}
            maxlength={200}
            placeholder={config ? t('keepToken', { token: config.apiToken }) : ''}
          />
        </label>
        <label>
          {t('inboxName')}
          <input id="chatwoot-inbox" name="inboxName" maxlength={100} value={session.sessionName} />
        </label>
        {OPTIONS.map(([name, on]) => (
          <label class="inline">
            <input type="checkbox" id={`chatwoot-${name}`} name={name} checked={on} />
            {t(name)}
          </label>
        ))}
        <div class="row">
          <button type="submit" id="chatwoot-save" disabled={busy}>
            {config ? t('save') : t('turnOn')}
          </button>
          {config ? (
            <button type="button" class="danger" id="chatwoot-off" onClick={turnOff}>
              {t('turnOff')}
            </button>
          ) : null}
        </div>
      </form>
      <StatusText id="chatwoot-status" message={status} />
      <ErrorText id="chatwoot-error" message={error} />
    </section>
  )
}
