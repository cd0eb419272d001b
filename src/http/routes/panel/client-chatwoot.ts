/**
 * The session page's "Chatwoot" section, part of the panel's browser code (client.ts splices it
 * into its script): shows, turns on, changes and turns off the session's Chatwoot integration
 * through /v1/session/{id}/chatwoot. The API answers the token masked and never again in full,
 * so a change asks for it again. Uses client.ts's helpers (h, api, attempt, badge, state).
 */
export const chatwootScript = `
// Chatwoot ------------------------------------------------------------------------------------

const CHATWOOT_OPTIONS = [
  ['signAgentName', 'Sign replies with the agent’s name', true],
  ['reopenResolved', 'Reopen resolved conversations', true],
  ['startPending', 'Start new conversations as pending', false],
  ['ignoreGroups', 'Leave groups out', false],
]
// The shown section's reader; the delivery log calls it when it reads itself again, since a
// delivery to Chatwoot is what turns the state error or ok (no event says so).
let chatwootReload = null
function refreshChatwoot() { if (chatwootReload) chatwootReload() }

function chatwootSection(session) {
  const path = '/v1/session/' + encodeURIComponent(session.sessionId) + '/chatwoot'
  const error = h('p', { class: 'error', id: 'chatwoot-error', role: 'alert' })
  const status = h('p', { class: 'muted', id: 'chatwoot-status', role: 'status' })
  const current = h('div', { id: 'chatwoot-current' })
  const url = h('input', { id: 'chatwoot-url', type: 'url', required: true, placeholder: 'https://chat.example.com' })
  const account = h('input', { id: 'chatwoot-account', type: 'number', min: 1, step: 1, required: true })
  const token = h('input', { id: 'chatwoot-token', type: 'password', autocomplete: 'off', required: true, maxlength: 200 })
  const inbox = h('input', { id: 'chatwoot-inbox', maxlength: 100, value: session.sessionName })
  const options = Object.fromEntries(CHATWOOT_OPTIONS.map(([name, , on]) => [name, h('input', { type: 'checkbox', id: 'chatwoot-' + name, checked: on })]))
  const save = h('button', { type: 'submit', id: 'chatwoot-save' }, 'Turn on')
  const off = h('button', { type: 'button', class: 'danger', id: 'chatwoot-off', onclick: turnOff }, 'Turn off')
  const actions = h('div', { class: 'row' }, save)
  let shown = null // the integration as last read (null: none)
  let typedIn = false // the form is filled from what is read only until the user types into it
  let lastState = null

  function show(config) {
    shown = config
    if (state.selected !== session.sessionId) return
    form.hidden = false
    save.textContent = config ? 'Save' : 'Turn on'
    actions.replaceChildren(save, config ? off : null)
    // Left blank on a change, the gateway keeps the saved token (it shows only its last 4 characters).
    token.required = !config
    token.placeholder = config ? 'Leave blank to keep ' + config.apiToken : ''
    if (!typedIn && config) {
      url.value = config.url
      account.value = String(config.accountId)
      inbox.value = config.inboxName
      for (const [name] of CHATWOOT_OPTIONS) options[name].checked = config[name]
    }
    if (!config) return current.replaceChildren(h('p', { class: 'muted' }, 'Not connected to Chatwoot.'))
    const row = (term, ...value) => [h('dt', {}, term), h('dd', {}, ...value)]
    current.replaceChildren(h('dl', { class: 'facts' },
      row('State', badge(config.state)),
      config.lastError ? row('Last error', h('span', { id: 'chatwoot-last-error' }, config.lastError, ' (', new Date(config.lastErrorAt).toLocaleString(), ')')) : null,
      row('URL', config.url),
      row('Account', String(config.accountId)),
      row('Inbox', config.inboxName + ' (#' + config.inboxId + ')'),
      row('API token', h('code', { id: 'chatwoot-token-shown' }, config.apiToken)),
      row('Options', h('ul', { class: 'options' }, CHATWOOT_OPTIONS.map(([name, label]) => h('li', { 'data-option': name }, label + ': ' + (config[name] ? 'yes' : 'no')))))))
    // Announce a change of state once, not at every read.
    const stateLine = config.state === 'error' ? 'Chatwoot fails: ' + config.lastError : 'Chatwoot is reached.'
    if (lastState !== null && lastState !== stateLine) status.textContent = stateLine
    lastState = stateLine
  }

  async function load() {
    try {
      const config = await api('GET', path)
      show(config)
    } catch (failure) {
      if (failure.status === 404) return show(null)
      if (failure.status === 401) return signOut('Your key was refused; sign in again.')
      // The gateway refuses the routes themselves (the edge deployment): no form that can only fail.
      if (failure.status === 400) {
        form.hidden = true
        return current.replaceChildren(h('p', { class: 'muted' }, failure.message))
      }
      error.textContent = failure.message
    }
  }

  function turnOff() {
    if (!confirm('Stop mirroring "' + session.sessionName + '" into Chatwoot? Chatwoot keeps the inbox and its conversations.')) return
    attempt(error, async () => {
      await api('DELETE', path)
      status.textContent = 'Turned off.'
      show(null)
    })
  }

  const form = h('form', { oninput: () => { typedIn = true }, onsubmit: (event) => {
    event.preventDefault()
    const body = { url: url.value.trim(), accountId: Number(account.value) }
    if (token.value) body.apiToken = token.value
    if (inbox.value.trim()) body.inboxName = inbox.value.trim()
    for (const [name] of CHATWOOT_OPTIONS) body[name] = options[name].checked
    save.disabled = true
    status.textContent = 'Asking Chatwoot…'
    attempt(error, async () => {
      const config = await api('PUT', path, body)
      token.value = '' // never kept in the page once saved
      status.textContent = shown ? 'Saved.' : 'Turned on: inbox ' + config.inboxName + '.'
      lastState = null
      typedIn = false
      show(config)
    }).finally(() => {
      save.disabled = false
      if (error.textContent) status.textContent = ''
    })
  } },
    h('label', {}, 'Chatwoot URL', url),
    h('label', {}, 'Account id', account),
    h('label', {}, 'API token', token),
    h('label', {}, 'Inbox name', inbox),
    CHATWOOT_OPTIONS.map(([name, label]) => h('label', {}, options[name], ' ' + label)),
    actions)
  chatwootReload = load
  load()
  return h('section', { id: 'chatwoot' }, h('h2', {}, 'Chatwoot'), current, form, status, error)
}
`
