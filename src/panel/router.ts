/**
 * Where the panel is, in the URL's hash (so a reload, the back button and a shared link work, and
 * the server needs no route per screen): `#/session/<id>/<tab>[/<item>]` or `#/admin`.
 */
import { createStore } from './store'

export const SESSION_TABS = ['overview', 'inbox', 'groups', 'contacts', 'webhooks', 'chatwoot', 'events'] as const
export type SessionTab = (typeof SESSION_TABS)[number]

export type Route =
  | { screen: 'home' }
  | { screen: 'admin' }
  | { screen: 'session'; sessionId: string; tab: SessionTab; item: string | null }

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent)
  if (parts[0] === 'admin') return { screen: 'admin' }
  if (parts[0] === 'session' && parts[1]) {
    const tab = SESSION_TABS.find((name) => name === parts[2]) ?? 'overview'
    return { screen: 'session', sessionId: parts[1], tab, item: parts[3] || null }
  }
  return { screen: 'home' }
}

export const href = (route: Route): string => {
  if (route.screen === 'admin') return '#/admin'
  if (route.screen === 'home') return '#/'
  const item = route.item ? `/${encodeURIComponent(route.item)}` : ''
  return `#/session/${encodeURIComponent(route.sessionId)}/${route.tab}${item}`
}

export const route = createStore<Route>(parseRoute(location.hash))
addEventListener('hashchange', () => route.set(parseRoute(location.hash)))

export const navigate = (next: Route) => {
  location.hash = href(next)
}
