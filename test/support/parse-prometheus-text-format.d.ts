declare module 'parse-prometheus-text-format' {
  /** Prometheus text → families as prom2json gives them (values are strings). */
  export default function parsePrometheusTextFormat(text: string): unknown[]
}
