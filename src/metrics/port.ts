/**
 * What the gateway reports for /metrics, as the places where things happen call it: the HTTP
 * layer, the send and contact-check services, the records (statuses, acks, inbound), the
 * webhook dispatcher. They know nothing of Prometheus; without METRICS_TOKEN they get `noMetrics`.
 *
 * Labels are small closed sets (a message type, an error code, a status, a route pattern):
 * never a session id, a phone number, a text, a key or a token. A label per session would make
 * the series grow with the sessions; per-session state is the API's (GET /v1/session/all).
 */
export interface GatewayMetrics {
  /** false for noMetrics: callers skip work done only to report (e.g. finding a route pattern). */
  readonly enabled: boolean
  /** An API request ended: its method, matched route pattern (never the raw path), status and duration. */
  httpRequest(method: string, route: string, status: number, seconds: number): void
  /** A send ended: `handed_over`, or the error code it answered (`session_not_connected`, `rate_limited`, …). */
  messageSend(type: string, outcome: string): void
  /** WhatsApp took a send: the server-ack latency counts from now. */
  handedOver(sessionId: string, messageId: string): void
  /** An outbound record's status moved on (sent, delivered, read, played, failed), `from` what it was. */
  messageStatus(sessionId: string, messageId: string, from: string, to: string, reason: string | null): void
  /** An inbound message was stored (once, whatever WhatsApp relays again). */
  messageReceived(type: string): void
  /** A history chunk was read (done, cut_off, expired), with the messages it stored. */
  historyChunk(state: 'done' | 'cut_off' | 'expired', messages: number): void
  /** A webhook POST ended: delivered (with the time since its event was written), retrying or failed for good. */
  webhookDelivery(outcome: 'delivered' | 'retrying' | 'failed', secondsSinceEvent: number): void
  /** A contact check's numbers: how many exist, do not, or were not answered. */
  contactChecks(outcome: 'exists' | 'not_exists' | 'failed', numbers: number): void
  /** A limit refused a request: the daily contact-check quota, a paced session's full send queue. */
  quotaRefused(quota: 'contact_checks' | 'send_queue'): void
}

const nothing = () => {}

/** Reports nothing, costs a call: where no metrics are wanted (no METRICS_TOKEN, the CLI, the edge). */
export const noMetrics: GatewayMetrics = {
  enabled: false,
  httpRequest: nothing,
  messageSend: nothing,
  handedOver: nothing,
  messageStatus: nothing,
  messageReceived: nothing,
  historyChunk: nothing,
  webhookDelivery: nothing,
  contactChecks: nothing,
  quotaRefused: nothing,
}
