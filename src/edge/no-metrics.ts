/**
 * Stand-in for prom-client in the Worker bundle (wrangler [alias]): the edge serves no /metrics
 * (the Worker answers 404; see docs/edge.md), and a session object builds its gateway without
 * METRICS_TOKEN, so none of this is ever constructed. prom-client itself reaches for node:cluster
 * and process figures a Worker does not have.
 */
class Unavailable {
  constructor() {
    throw new Error('prom-client does not run on the edge: /metrics is not served there')
  }
}

export const Registry = Unavailable
export const Counter = Unavailable
export const Gauge = Unavailable
export const Histogram = Unavailable
export const collectDefaultMetrics = () => {
  throw new Error('prom-client does not run on the edge: /metrics is not served there')
}
