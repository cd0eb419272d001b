/** on-exit-leak-free (pino's own exit hook) ships no types; the one function we call. */
declare module 'on-exit-leak-free' {
  /** Calls `fn(object, 'exit')` when the process exits, unless `object` was garbage-collected first. */
  export function register<T extends object>(object: T, fn: (object: T, event: 'exit') => void): void
}
