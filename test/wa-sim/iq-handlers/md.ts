// xmlns=md: pairing-code stages and remove-companion-device (the client's logout()).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Connection } from '../connection'
import { childrenOf, iqResult } from '../node-utils'
import { onCompanionFinish, onCompanionHello } from '../pairing'
import type { SimState } from '../state'

export const handleMdIq = (state: SimState, connection: Connection, node: BinaryNode): BinaryNode => {
  const first = childrenOf(node)[0]
  if (first?.tag === 'link_code_companion_reg') {
    if (first.attrs.stage === 'companion_hello') return onCompanionHello(connection, node, first)
    if (first.attrs.stage === 'companion_finish') return onCompanionFinish(state, connection, node, first)
  }
  if (first?.tag === 'remove-companion-device' && connection.account) {
    // The companion unlinked itself: the phone forgets it and refuses its credentials from now on
    connection.account.linked = false
    state.logger.info(
      `account ${connection.account.phone} device ${connection.account.deviceId} unlinked by the client`,
    )
  }
  return iqResult(node)
}
