/**
 * The session page's "More webhooks" section, part of the panel's browser code (client.ts
 * splices it into its script): lists, adds and removes a session's other webhooks through
 * /v1/session/{id}/webhooks, showing a new webhook's secret the one time the API answers it.
 * Uses client.ts's helpers (h, api, attempt, state).
 */
export const webhooksScript = `
// More webhooks (beside the session's own webhookUrl) ------------------------------------------

function webhooksSection(session) {
  const error = h('p', { class: 'error', id: 'webhooks-error' })
  const list = h('ul', { class: 'webhooks', id: 'webhooks' })
  const url = h('input', { id: 'new-webhook-url', type: 'url', required: true, placeholder: 'https://…' })
  const events = h('input', { id: 'new-webhook-events', placeholder: 'every type' })
  const description = h('input', { id: 'new-webhook-description', maxlength: 500 })
  const secret = h('code', { id: 'new-webhook-secret' })
  const path = '/v1/session/' + encodeURIComponent(session.sessionId) + '/webhooks'
  const summary = (w) => [w.description, (w.events || ['every type']).join(', ')].filter(Boolean).join(' · ')
  async function load() {
    const page = await attempt(error, () => api('GET', path))
    if (!page || state.selected !== session.sessionId) return
    list.replaceChildren(...page.webhooks.map((w) => h('li', { 'data-id': w.webhookId },
      h('span', {}, w.url, h('br'), h('small', { class: 'muted' }, summary(w))),
      h('button', { class: 'plain remove-webhook', onclick: () => {
        if (!confirm('Remove the webhook ' + w.url + '? It gets nothing more.')) return
        attempt(error, async () => { await api('DELETE', path + '/' + encodeURIComponent(w.webhookId)); await load() })
      } }, 'Remove'))))
    if (page.webhooks.length === 0) list.append(h('li', { class: 'muted' }, 'None beside the session’s own.'))
  }
  const form = h('form', { onsubmit: (event) => {
    event.preventDefault()
    attempt(error, async () => {
      const types = events.value.split(',').map((type) => type.trim()).filter(Boolean)
      const body = { url: url.value }
      if (types.length) body.events = types
      if (description.value.trim()) body.description = description.value.trim()
      const created = await api('POST', path, body)
      form.reset()
      secret.textContent = 'Secret of ' + created.url + ' (shown once): ' + created.secret
      await load()
    })
  } }, h('label', {}, 'URL', url), h('label', {}, 'Event types (comma-separated)', events), h('label', {}, 'Description', description),
    h('div', { class: 'row' }, h('button', { type: 'submit', id: 'add-webhook' }, 'Add webhook')))
  load()
  return h('section', {}, h('h2', {}, 'More webhooks'), list, form, h('p', {}, secret), error)
}
`
