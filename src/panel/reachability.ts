/**
 * Whether the gateway answers. A failed request flips it off; then /health is asked every few
 * seconds until it answers, so the banner goes as soon as the gateway is back.
 */
import { createStore } from './store'

export const reachability = createStore({ reachable: true })
let probe: ReturnType<typeof setInterval> | null = null

export function setReachable(reachable: boolean) {
  if (reachability.get().reachable === reachable) return
  reachability.set({ reachable })
  if (reachable && probe) {
    clearInterval(probe)
    probe = null
  } else if (!reachable && !probe) {
    const base = location.pathname.replace(/\/panel\/?$/, '')
    probe = setInterval(() => {
      fetch(`${base}/health`).then(
        (response) => response.ok && setReachable(true),
        () => {},
      )
    }, 3000)
  }
}
