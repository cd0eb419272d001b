/**
 * The panel's live updates, part of its browser code (client.ts splices it into its script):
 * follows GET /v1/events and applies each event to the page. Uses client.ts's helpers and state
 * (api's key, signOut, refreshSessions, renderStatus, upsertMessage, ...).
 */
export const eventsScript = String.raw`
// Live events (GET /v1/events, read with fetch so the key travels in a header) ---------------
// The workspace's stream where the gateway has one. On the edge each session keeps its own events
// (the workspace stream answers 400): there the panel follows the selected session's stream and
// reads the session list every few seconds for the others' statuses.

async function follow() {
  if (state.stream) state.stream.abort()
  const controller = new AbortController()
  state.stream = controller
  while (!controller.signal.aborted) {
    try {
      const path = state.perSession ? (state.selected ? '/v1/events?sessionId=' + encodeURIComponent(state.selected) : null) : '/v1/events'
      if (path) {
        const headers = { authorization: 'Bearer ' + sessionStorage.getItem(KEY), accept: 'text/event-stream' }
        const deploymentKey = sessionStorage.getItem(DEPLOYMENT_KEY)
        if (deploymentKey) headers['x-api-key'] = deploymentKey
        if (state.lastEventId) headers['last-event-id'] = state.lastEventId
        const response = await fetch(base + path, { headers, signal: controller.signal })
        if (response.status === 401) return signOut('Your key was refused; sign in again.')
        if (response.status === 400 && !state.perSession) {
          state.perSession = true
          state.lastEventId = null
          state.poller = setInterval(() => refreshSessions().then(renderStatus), 5000)
          continue
        }
        if (!response.ok || !response.body) throw new Error('events answered ' + response.status)
        await readEvents(response.body.getReader())
      }
    } catch (error) {
      if (controller.signal.aborted) return
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)) // then resume after the last event seen
  }
}

async function readEvents(reader) {
  const decoder = new TextDecoder()
  let buffer = ''
  let event = { id: null, type: 'message', data: [] }
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    let newline
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '')
      buffer = buffer.slice(newline + 1)
      if (line === '') {
        if (event.data.length > 0) dispatch(event)
        event = { id: null, type: 'message', data: [] }
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'id') event.id = value
        else if (field === 'event') event.type = value
        else if (field === 'data') event.data.push(value)
      }
    }
  }
}

function dispatch({ id, data }) {
  if (id) state.lastEventId = id
  const event = JSON.parse(data.join('\n'))
  const session = state.sessions.find((s) => s.sessionId === event.sessionId)
  if (event.type === 'session.status') {
    if (session) Object.assign(session, { status: event.data.status, statusReason: event.data.statusReason, number: event.data.number || session.number })
    if (!session) refreshSessions()
    renderSessions()
    renderStatus()
  } else if (event.type === 'session.qr' && event.sessionId === state.selected) {
    refreshQr()
  } else if (event.type === 'message.poll_vote' || event.type === 'message.reaction') {
    // Add-ons to a message, not a record: the row it changes shows no votes or reactions.
  } else if (event.type.startsWith('message.')) {
    const status = event.type === 'message.received' ? 'received' : event.type === 'message.deleted' ? 'deleted' : event.data.status
    upsertMessage({ ...event.data, sessionId: event.sessionId, createdAt: event.data.createdAt || event.timestamp, ...(status ? { status } : {}) })
  }
  if (event.sessionId === state.selected) reloadDeliveriesSoon()
}
`
