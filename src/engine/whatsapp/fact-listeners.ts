import type { EngineFact, FactListener } from './port'

/** The subscribers of an engine's facts (WhatsAppEngine.onFact), told in the order they came. */
export class FactListeners {
  readonly #listeners = new Set<FactListener>()

  add(listener: FactListener): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  /** Synchronous on purpose: see WhatsAppEngine.onFact. */
  readonly emit = (fact: EngineFact): void => {
    for (const listener of this.#listeners) listener(fact)
  }
}
