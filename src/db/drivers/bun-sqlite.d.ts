// Just enough of bun:sqlite's types for the Bun driver; only Bun resolves this module at run time.
declare module 'bun:sqlite' {
  export class Database {
    constructor(filename?: string, options?: { create?: boolean; readonly?: boolean; strict?: boolean })
    prepare(sql: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] }
    exec(sql: string): unknown
    close(): void
  }
}
