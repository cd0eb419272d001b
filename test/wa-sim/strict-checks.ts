// The strict peer: what the real server (or a recipient phone) would reject, recorded as violations
// so tests can assert there were none — or that a deliberate mistake was caught.
import type { BinaryNode } from '@whiskeysockets/baileys'

export type ViolationKind =
  | 'malformed-node'
  | 'missing-device-encryption'
  | 'invalid-device-signature'
  | 'unknown-message-reference'
  | 'undecryptable-message'
  | 'invalid-media-retry'
  | 'unknown-receipt-reference'
  | 'malformed-presence'
  | 'malformed-chatstate'
  | 'malformed-poll'
  | 'malformed-link-preview'
  | 'malformed-forward'
  | 'undecryptable-vote'
  | 'over-limit'
  | 'invalid-profile-picture'
  | 'invalid-app-state-patch'
  | 'invalid-label'
  | 'unknown-call'

export interface Violation {
  /** Account phone, or '' when the connection has none yet */
  account: string
  kind: ViolationKind
  detail: string
}

export class Violations {
  private readonly list: Violation[] = []

  record(account: string, kind: ViolationKind, detail: string): void {
    this.list.push({ account, kind, detail })
  }

  all(): Violation[] {
    return [...this.list]
  }
}

/** Attributes the real server requires on every stanza of a tag. */
const REQUIRED_ATTRS: Record<string, string[]> = {
  iq: ['id', 'type'],
  message: ['id', 'to', 'type'],
  receipt: ['id', 'to'],
  call: ['id', 'to'],
}

export const missingAttributes = (node: BinaryNode): string[] => {
  const required = REQUIRED_ATTRS[node.tag] ?? []
  return required.filter((name) => !node.attrs[name])
}
