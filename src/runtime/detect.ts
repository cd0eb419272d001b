/** Whether this process runs on Bun; the Node/Bun choices (server, SQLite driver) hang on it. */
export const isBun = () => typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'
