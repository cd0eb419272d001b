// The <notification type="w:gp2"> a server sends to the devices of a group's members after a
// change: from the group, naming who made it (LID, with its phone number), one child per change.
// Only accounts have devices here; like group messages, notifications are relayed live only.
import type { BinaryNode } from '@whiskeysockets/baileys'
import { memberOf } from './group-nodes'
import { serverMessageId, unixNow } from './node-utils'
import type { Group, SimState } from './state'

export const notifyMembers = (
  state: SimState,
  group: Group,
  actor: string,
  child: BinaryNode,
  recipients: Iterable<string> = group.participants,
): void => {
  if (state.groupNotificationsLost) return
  const by = memberOf(state, actor)
  for (const phone of new Set(recipients)) {
    const account = state.accounts.get(phone)
    const connection = account ? state.liveConnectionOf(account) : undefined
    if (!connection) continue
    connection.sendNode({
      tag: 'notification',
      attrs: {
        from: group.jid,
        type: 'w:gp2',
        id: serverMessageId('NOTIF'),
        t: unixNow(),
        addressing_mode: 'lid',
        ...(by ? { participant: by.lidJid, participant_pn: by.pnJid, notify: `User ${by.phone}` } : {}),
      },
      content: [child],
    })
  }
}
