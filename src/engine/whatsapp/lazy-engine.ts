import { hasPairedCredentials } from './socket/credentials'
import { FactListeners } from './fact-listeners'
import type { WhatsAppEngine } from './port'
import type { AuthStore } from './port/auth-store'
import type { WebVersionKeeper } from './socket/web-version'

/**
 * An engine that loads the real one (and with it Baileys, libsignal, protobufjs: most of the
 * gateway's code and memory) when the first session opens. Until then it answers from the auth store:
 * a gateway with no live session never loads Baileys, so it starts fast and small.
 */
export function lazyEngine(
  authStore: AuthStore,
  versions: WebVersionKeeper,
  load: () => Promise<WhatsAppEngine>,
): WhatsAppEngine {
  let loading: Promise<WhatsAppEngine> | undefined
  let loaded: WhatsAppEngine | undefined
  // Subscribers come before the real engine does: its facts are passed on to them.
  const facts = new FactListeners()
  const engine = () =>
    (loading ??= load().then(
      (real) => {
        real.onFact(facts.emit)
        loaded = real
        return real
      },
      (error: unknown) => {
        loading = undefined // a failed load (e.g. out of memory) is tried again by the next open
        throw error
      },
    ))

  return {
    onFact: (listener) => facts.add(listener),
    open: async (sessionId, options) => (await engine()).open(sessionId, options),
    session: (sessionId) => loaded?.session(sessionId),
    downloadMedia: async (sessionId, payload, options) => (await engine()).downloadMedia(sessionId, payload, options),
    async *readHistory(sessionId, notification, options) {
      yield* (await engine()).readHistory(sessionId, notification, options)
    },
    hasCredentials: (sessionId) => hasPairedCredentials(authStore, sessionId),
    wipeCredentials: (sessionId) => authStore.clear(sessionId),
    async stopAll() {
      if (loading) await (await loading.catch(() => undefined))?.stopAll()
    },
    webVersion: () => versions.info(),
  }
}
