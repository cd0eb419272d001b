// Just enough of bun:test's types for bun-preload.ts; only `bun test` resolves this module.
declare module 'bun:test' {
  export const vi: object
}
