/**
 * Where the engine keeps each session's WhatsApp credentials and Signal keys: the gateway's
 * SQLite (`db/auth-store.ts`), passed in by whoever builds the engine. Values are the text the
 * engine serialized; the store keeps them as they are. On the hot path (a pairing writes its
 * 812 pre-keys one row at a time, every message reads and writes session keys): an
 * implementation prepares its statements once.
 */
export interface AuthStore {
  /** The session's credentials as last written, or undefined before its first socket saved any. */
  readCreds(sessionId: string): string | undefined
  writeCreds(sessionId: string, text: string): void
  /** One Signal key (`category`: Baileys' key type, e.g. `session`, `pre-key`), or undefined. */
  readKey(sessionId: string, category: string, keyId: string): string | undefined
  /** Writes a key, or deletes it (`null`). */
  writeKey(sessionId: string, category: string, keyId: string, text: string | null): void
  /**
   * Runs `writes` (writeKey calls) as one transaction, so a crash never leaves half a key
   * update. It may become durable later, at the next `commit`.
   */
  atomically(writes: () => void): void
  /**
   * Makes every write so far durable. The engine calls it before any frame leaves for WhatsApp,
   * which acts on what it is sent: a receipt makes the server forget the message it names.
   */
  commit(): void
  /** Deletes the session's credentials and every key (an unlink, a logout). */
  clear(sessionId: string): void
}
