import { chatwootScript } from './client-chatwoot'
import { eventsScript } from './client-events'
import { webhooksScript } from './client-webhooks'

/**
 * The panel's browser code, plain JavaScript served as /panel/app.js. It calls only the
 * documented /v1 routes (the panel has no private API) with the key kept in sessionStorage,
 * follows GET /v1/events for live changes, and builds every element with textContent, never
 * HTML from data. Kept as one string so every runtime (Node, Bun, the binary, a Worker)
 * serves it without a file of its own; the browser test in test/http/routes/panel exercises it.
 */
export const panelScript = String.raw`(() => {
'use strict'
const base = location.pathname.replace(/\/panel\/?$/, '')
const KEY = 'wa-gateway.key'
const DEPLOYMENT_KEY = 'wa-gateway.deployment-key'
const state = { sessions: [], selected: null, messages: new Map(), deliveries: [], qr: new Map(), pairingCodes: new Map(), stream: null, lastEventId: null, perSession: false, poller: null }
const main = document.getElementById('main')
const who = document.getElementById('who')
const signOutButton = document.getElementById('sign-out')

function h(tag, props, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(props || {})) {
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value)
    else if (name === 'class') el.className = value
    else if (value === true) el.setAttribute(name, '')
    else if (value !== false && value != null) el.setAttribute(name, String(value))
  }
  for (const child of children.flat()) if (child != null && child !== false) el.append(child instanceof Node ? child : String(child))
  return el
}
const byId = (id) => document.getElementById(id)
const badge = (status) => h('span', { class: 'status ' + status }, status)
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '')

async function api(method, path, body) {
  const headers = { authorization: 'Bearer ' + sessionStorage.getItem(KEY) }
  const deploymentKey = sessionStorage.getItem(DEPLOYMENT_KEY)
  if (deploymentKey) headers['x-api-key'] = deploymentKey
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const data = (response.headers.get('content-type') || '').includes('json') ? await response.json() : null
  if (!response.ok) throw Object.assign(new Error((data && data.message) || response.statusText), { status: response.status })
  return data
}

/** Runs an action, showing its error (if any) in the given element instead of throwing. */
async function attempt(errorEl, action) {
  if (errorEl) errorEl.textContent = ''
  try {
    return await action()
  } catch (error) {
    if (error.status === 401) return signOut('Your key was refused; sign in again.')
    if (errorEl) errorEl.textContent = error.message
    else console.error(error)
  }
}

// Sign in -------------------------------------------------------------------------------------

function showSignIn(message) {
  main.className = 'single'
  who.textContent = ''
  signOutButton.hidden = true
  const error = h('p', { class: 'error', id: 'sign-in-error' }, message || '')
  const key = h('input', { id: 'api-key', type: 'password', autocomplete: 'off', required: true, placeholder: 'wag_…' })
  const deploymentKey = h('input', { id: 'deployment-key', type: 'password', autocomplete: 'off' })
  const form = h('form', { onsubmit: async (event) => {
    event.preventDefault()
    sessionStorage.setItem(KEY, key.value.trim())
    if (deploymentKey.value.trim()) sessionStorage.setItem(DEPLOYMENT_KEY, deploymentKey.value.trim())
    else sessionStorage.removeItem(DEPLOYMENT_KEY)
    await start(error)
  } },
    h('label', {}, 'API key (on the edge deployment: a JWT)', key),
    h('label', {}, 'Deployment key (only when the operator set DEPLOYMENT_API_KEY)', deploymentKey),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Sign in')),
    error)
  main.replaceChildren(h('section', {}, h('h2', {}, 'Sign in'), h('p', { class: 'muted' }, 'The key stays in this tab (sessionStorage) and goes only to this gateway.'), form))
}

function signOut(message) {
  sessionStorage.removeItem(KEY)
  sessionStorage.removeItem(DEPLOYMENT_KEY)
  if (state.stream) state.stream.abort()
  state.stream = null
  clearInterval(state.poller)
  state.perSession = false
  showSignIn(message)
}
signOutButton.addEventListener('click', () => signOut())

async function start(errorEl) {
  const workspace = await attempt(errorEl, () => api('GET', '/v1/workspace'))
  if (!workspace) return
  who.textContent = workspace.name + ' · ' + workspace.plan
  signOutButton.hidden = false
  main.className = ''
  main.replaceChildren(h('div', {}, sessionsSection(), newSessionSection()), h('div', { id: 'detail' }, h('section', {}, h('p', { class: 'muted' }, 'Select a session, or connect a new one.'))))
  await refreshSessions()
  follow()
}

// Sessions ------------------------------------------------------------------------------------

function sessionsSection() {
  return h('section', {}, h('h2', {}, 'Sessions'), h('ul', { class: 'sessions', id: 'sessions' }), h('p', { class: 'error', id: 'sessions-error' }))
}

async function refreshSessions() {
  const list = await attempt(byId('sessions-error'), () => api('GET', '/v1/session/all'))
  if (!list) return
  state.sessions = list.sessions
  renderSessions()
}

function renderSessions() {
  const ul = byId('sessions')
  if (!ul) return
  ul.replaceChildren(...state.sessions.map((s) => h('li', {
    'data-id': s.sessionId, class: s.sessionId === state.selected ? 'selected' : '', onclick: () => select(s.sessionId),
  }, h('span', {}, s.sessionName, h('br'), h('small', { class: 'muted' }, s.number || '')), badge(s.status))))
  if (state.sessions.length === 0) ul.append(h('li', { class: 'muted' }, 'No sessions yet.'))
}

function newSessionSection() {
  const error = h('p', { class: 'error' })
  const name = h('input', { id: 'new-name', required: true, maxlength: 100 })
  const webhook = h('input', { id: 'new-webhook', type: 'url', placeholder: 'https://… (optional)' })
  const mode = h('select', { id: 'new-mode' }, h('option', { value: 'qr' }, 'QR code'), h('option', { value: 'pairing' }, 'Pairing code'))
  const number = h('input', { id: 'new-number', placeholder: 'Phone number, country code first' })
  const form = h('form', { onsubmit: async (event) => {
    event.preventDefault()
    const body = { sessionName: name.value, mode: mode.value }
    if (webhook.value) body.webhookUrl = webhook.value
    if (mode.value === 'pairing') body.pairingNumber = number.value
    const created = await attempt(error, () => api('POST', '/v1/session/connect', body))
    if (!created) return
    form.reset()
    state.qr.set(created.sessionId, created.qrImage)
    if (created.pairingCode) state.pairingCodes.set(created.sessionId, created.pairingCode)
    await refreshSessions()
    await select(created.sessionId)
    if (created.webhookSecret) byId('secret').textContent = 'Webhook secret (shown once): ' + created.webhookSecret
  } }, h('label', {}, 'Name', name), h('label', {}, 'Webhook URL', webhook), h('label', {}, 'Link by', mode), h('label', {}, 'Pairing number', number),
    h('div', { class: 'row' }, h('button', { type: 'submit', id: 'connect' }, 'Connect')), error)
  return h('section', {}, h('h2', {}, 'New session'), form)
}

const selectedSession = () => state.sessions.find((s) => s.sessionId === state.selected)

async function select(sessionId) {
  const changed = state.selected !== sessionId
  state.selected = sessionId
  // Following one session's stream (the edge): follow the newly selected one from its start.
  if (changed && state.perSession) {
    state.lastEventId = null
    follow()
  }
  state.messages = new Map()
  state.deliveries = []
  renderSessions()
  renderDetail()
  await Promise.all([loadMessages(), loadDeliveries(), refreshQr()])
}

function renderDetail() {
  const session = selectedSession()
  const detail = byId('detail')
  if (!session || !detail) return
  const error = h('p', { class: 'error', id: 'detail-error' })
  const webhookUrl = h('input', { id: 'webhook-url', type: 'url', value: session.webhookUrl ?? '', placeholder: 'none' })
  const webhookMessages = h('input', { id: 'webhook-messages', type: 'checkbox', checked: session.webhookMessages })
  const autoReject = h('input', { id: 'auto-reject', type: 'checkbox', checked: session.autoRejectCalls })
  // Comma-separated event types; empty is null (every type). The gateway validates the names.
  const webhookEvents = h('input', { id: 'webhook-events', placeholder: 'every type', value: (session.webhookEvents || []).join(', ') })
  const eventList = () => { const types = webhookEvents.value.split(',').map((type) => type.trim()).filter(Boolean); return types.length ? types : null }
  const update = (body) => attempt(error, async () => {
    const updated = await api('PUT', '/v1/session/update/' + encodeURIComponent(session.sessionId), body)
    if (updated.webhookSecret) byId('secret').textContent = 'New webhook secret (shown once): ' + updated.webhookSecret
    await refreshSessions()
  })
  detail.replaceChildren(
    h('section', {},
      h('h2', {}, session.sessionName, ' ', h('span', { id: 'detail-status' })),
      h('p', { class: 'muted', id: 'detail-info' }),
      h('div', { id: 'pairing' }),
      h('div', { class: 'row' },
        h('button', { class: 'plain', id: 'restart', onclick: () => attempt(error, async () => { await api('POST', '/v1/session/' + encodeURIComponent(session.sessionId) + '/restart'); await refreshSessions() }) }, 'Restart'),
        h('button', { class: 'danger', id: 'disconnect', onclick: () => {
          if (!confirm('Disconnect "' + session.sessionName + '"? The device is unlinked from the phone.')) return
          attempt(error, async () => { await api('DELETE', '/v1/session/disconnect/' + encodeURIComponent(session.sessionId)); await refreshSessions() })
        } }, 'Disconnect')),
      h('h3', {}, 'Webhook'),
      h('label', {}, 'URL', webhookUrl),
      h('label', {}, webhookMessages, ' Message events'),
      h('label', {}, 'Event types (comma-separated)', webhookEvents),
      h('label', {}, autoReject, ' Reject calls'),
      h('div', { class: 'row' },
        h('button', { id: 'save-settings', onclick: () => update({ webhookUrl: webhookUrl.value || null, webhookMessages: webhookMessages.checked, webhookEvents: eventList(), autoRejectCalls: autoReject.checked }) }, 'Save'),
        h('button', { class: 'plain', id: 'rotate-secret', onclick: () => update({ rotateWebhookSecret: true }) }, 'Rotate secret')),
      h('p', {}, h('code', { id: 'secret' })),
      error),
    webhooksSection(session),
    chatwootSection(session),
    sendSection(session),
    h('section', {}, h('h2', {}, 'Messages'), h('table', {}, h('thead', {}, h('tr', {}, ['Time', 'Way', 'Chat', 'Type', 'Text', 'Status'].map((t) => h('th', {}, t)))), h('tbody', { id: 'messages' }))),
    h('section', {}, h('h2', {}, 'Webhook deliveries'),
      h('div', { class: 'row' }, h('button', { class: 'plain', id: 'replay', onclick: () => attempt(byId('deliveries-error'), async () => {
        await api('POST', '/v1/webhooks/replay', { sessionId: session.sessionId, since: new Date(Date.now() - 3600_000).toISOString() })
        await loadDeliveries()
      }) }, 'Replay the last hour')),
      h('table', {}, h('thead', {}, h('tr', {}, ['Time', 'Event', 'Status', 'Tries', 'Last error', ''].map((t) => h('th', {}, t)))), h('tbody', { id: 'deliveries' })),
      h('p', { class: 'error', id: 'deliveries-error' })))
  renderStatus()
}

function renderStatus() {
  const session = selectedSession()
  if (!session || !byId('detail-status')) return
  byId('detail-status').replaceChildren(badge(session.status))
  byId('detail-info').textContent = [session.number && 'Number ' + session.number, session.statusReason && 'Reason: ' + session.statusReason, session.lastSeen && 'Last seen ' + new Date(session.lastSeen).toLocaleString()].filter(Boolean).join(' · ')
  const pairing = byId('pairing')
  const qr = state.qr.get(session.sessionId)
  const code = state.pairingCodes.get(session.sessionId)
  if (session.status !== 'pending') return pairing.replaceChildren()
  keepQrFresh()
  pairing.replaceChildren(h('div', {},
    h('p', {}, 'Scan with WhatsApp → Linked devices → Link a device.'),
    qr ? h('img', { class: 'qr', id: 'qr', alt: 'QR code to link WhatsApp', src: qr }) : h('p', { class: 'muted' }, 'Waiting for a QR code…'),
    code ? h('p', {}, 'Or enter this code on the phone: ', h('span', { class: 'code', id: 'pairing-code' }, code)) : null))
}

// While the selected session pairs, its QR is read again every few seconds: a session whose
// webhookEvents leave out session.qr has no event to say a new one replaced it.
const QR_REFRESH_MS = 5000
let qrTimer = null
function keepQrFresh() {
  if (qrTimer) return
  qrTimer = setTimeout(async () => {
    await refreshQr()
    qrTimer = null
    if (selectedSession()?.status === 'pending') keepQrFresh()
  }, QR_REFRESH_MS)
}

async function refreshQr() {
  const session = selectedSession()
  if (!session || session.status !== 'pending') return
  const current = await attempt(null, () => api('GET', '/v1/session/' + encodeURIComponent(session.sessionId) + '/qr')).catch(() => null)
  if (current && current.qrImage) {
    state.qr.set(session.sessionId, current.qrImage)
    renderStatus()
  }
}

${webhooksScript}
${chatwootScript}
// Sending -------------------------------------------------------------------------------------

function sendSection(session) {
  const error = h('p', { class: 'error', id: 'send-error' })
  const phone = h('input', { id: 'send-phone', placeholder: '+1 555 123 0001, or a group id' })
  const kind = h('select', { id: 'send-kind' }, h('option', { value: 'text' }, 'Text'), h('option', { value: 'image' }, 'Image (URL)'), h('option', { value: 'ptt' }, 'Voice note (URL)'), h('option', { value: 'audio' }, 'Audio file (URL)'))
  const value = h('textarea', { id: 'send-text', rows: 2, placeholder: 'Text, or the file’s URL' })
  const form = h('form', { onsubmit: (event) => {
    event.preventDefault()
    const common = { sessionId: session.sessionId, phone: phone.value }
    const [path, body] = kind.value === 'text' ? ['text', { ...common, message: value.value }]
      : kind.value === 'image' ? ['image', { ...common, imageUrl: value.value }]
      : ['audio', { ...common, audioUrl: value.value, ptt: kind.value === 'ptt' }]
    attempt(error, async () => {
      const record = await api('POST', '/v1/message/' + path, body)
      upsertMessage(record)
      value.value = ''
    })
  } }, h('label', {}, 'To', phone), h('label', {}, 'What', kind), h('label', {}, 'Content', value), h('div', { class: 'row' }, h('button', { type: 'submit', id: 'send' }, 'Send')), error)
  return h('section', {}, h('h2', {}, 'Send a test message'), form)
}

// Messages and deliveries ---------------------------------------------------------------------

async function loadMessages() {
  const session = state.selected
  const page = await attempt(null, () => api('GET', '/v1/message/all?limit=50&sessionId=' + encodeURIComponent(session)))
  if (!page || state.selected !== session) return
  for (const record of page.messages.slice().reverse()) state.messages.set(record.messageId, record)
  renderMessages()
}

function upsertMessage(record) {
  if (record.sessionId !== state.selected) return
  state.messages.set(record.messageId, { ...state.messages.get(record.messageId), ...record })
  renderMessages()
}

function renderMessages() {
  const tbody = byId('messages')
  if (!tbody) return
  const rows = [...state.messages.values()].sort((a, b) => String(b.createdAt || b.sentAt).localeCompare(String(a.createdAt || a.sentAt)))
  tbody.replaceChildren(...rows.map((m) => h('tr', { 'data-id': m.messageId, 'data-direction': m.direction },
    h('td', {}, time(m.createdAt || m.sentAt)), h('td', {}, m.direction === 'inbound' ? 'in' : 'out'), h('td', {}, m.phone || ''),
    h('td', {}, m.type), h('td', { class: 'text' }, (m.content && (m.content.text || m.content.caption || m.content.question)) || ''), h('td', {}, badge(m.status)))))
}

async function loadDeliveries() {
  const session = state.selected
  const page = await attempt(byId('deliveries-error'), () => api('GET', '/v1/webhooks/deliveries?limit=50&sessionId=' + encodeURIComponent(session)))
  refreshChatwoot()
  if (!page || state.selected !== session) return
  state.deliveries = page.deliveries
  const tbody = byId('deliveries')
  if (!tbody) return
  tbody.replaceChildren(...state.deliveries.map((d) => h('tr', { 'data-id': d.deliveryId },
    h('td', {}, time(d.createdAt)), h('td', {}, d.type + ' #' + d.sequence), h('td', {}, badge(d.status)), h('td', {}, d.attempts),
    h('td', { class: 'text' }, d.lastError || (d.lastStatusCode ? 'HTTP ' + d.lastStatusCode : '')),
    h('td', {}, h('button', { class: 'plain retry', onclick: () => attempt(byId('deliveries-error'), async () => {
      await api('POST', '/v1/webhooks/deliveries/' + encodeURIComponent(d.deliveryId) + '/retry?sessionId=' + encodeURIComponent(state.selected), {})
      await loadDeliveries()
    }) }, 'Retry')))))
  // A delivery's outcome makes no event of its own (a retried one turns delivered in silence):
  // while one is due within seconds, read the log again shortly.
  const dueSoon = (d) => d.status === 'pending' && (!d.nextAttemptAt || Date.parse(d.nextAttemptAt) - Date.now() < 10000)
  if (state.deliveries.some(dueSoon)) reloadDeliveriesSoon(2000)
}

let deliveriesTimer = null
function reloadDeliveriesSoon(ms = 300) {
  clearTimeout(deliveriesTimer)
  deliveriesTimer = setTimeout(loadDeliveries, ms)
}

${eventsScript}
if (sessionStorage.getItem(KEY)) start(null)
else showSignIn()
})()
`
