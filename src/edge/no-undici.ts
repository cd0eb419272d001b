/**
 * Stand-in for undici in the Worker bundle (wrangler [alias]): the edge delivers webhooks with
 * fetch (edge/network.ts), so the pinned pools of perf/pinned-poster.ts are never made there, and
 * undici itself reaches for node:sqlite, which workerd has not.
 */
export class Pool {
  constructor() {
    throw new Error('undici does not run on the edge: webhooks go out with fetch there')
  }
}
