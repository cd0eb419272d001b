import { attachAckListener } from './acks'
import { attachCallListener } from './calls'
import { attachChannelListener } from './channels'
import { attachHistoryListener } from './history'
import { attachInboundListener } from './inbound'
import { attachLabelListener } from './labels'
import { attachOwnMessageListener } from './own-messages'
import { attachPresenceListener } from './presence'
import { attachReactionVoteListener } from './reactions-votes'
import { attachReceiptListener } from './receipts'
import type { RingingCalls } from './ringing-calls'
import type { ListenerContext } from './types'

/** What the listeners need from their connection besides the socket. */
export interface ListenerNeeds {
  /** A recorded message's proto (a poll's, to decrypt its votes). */
  storedMessage(messageId: string): Uint8Array | undefined
  autoRejectCalls(): boolean
  ringing: RingingCalls
  /** Whether the session imports history (docs/history.md). */
  history: boolean
  readForKeys(notification: Uint8Array): void
}

/** Every listener a socket gets: each turns some of Baileys' events into engine facts. */
export function attachFactListeners(context: ListenerContext, needs: ListenerNeeds): void {
  attachAckListener(context)
  attachReceiptListener(context)
  attachInboundListener(context)
  attachChannelListener(context)
  attachOwnMessageListener(context)
  attachReactionVoteListener(context, needs.storedMessage)
  attachCallListener(context, { autoReject: needs.autoRejectCalls, ringing: needs.ringing })
  attachPresenceListener(context)
  attachLabelListener(context)
  attachHistoryListener(context, { history: needs.history, readForKeys: needs.readForKeys })
}
