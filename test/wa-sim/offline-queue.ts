// WhatsApp's offline queue, server side: what a device has not acknowledged is relayed to it again.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import type { Connection } from './connection'

/** The message ids a client receipt names: `id`, and any more in <list><item id/></list>. */
const receiptIds = (node: BinaryNode): string[] => {
  const list = Array.isArray(node.content) ? node.content.find((child) => child.tag === 'list') : undefined
  const items = list && Array.isArray(list.content) ? list.content.map((item) => item.attrs.id ?? '') : []
  return [node.attrs.id ?? '', ...items].filter((id) => id !== '')
}

/**
 * A receipt from the device: any kind but `retry` (delivered, inactive, read, sender…) tells the
 * server the device has the message, which then leaves the queue. A `retry` receipt says the
 * device could not decrypt it: the sender encrypts it again and the server relays it.
 */
export async function onClientReceipt(connection: Connection, account: Account, node: BinaryNode): Promise<void> {
  if (node.attrs.type !== 'retry') {
    for (const id of receiptIds(node)) account.unacknowledged.delete(id)
    return
  }
  const entry = account.unacknowledged.get(node.attrs.id ?? '')
  if (!entry) return
  entry.node = await entry.reencrypt()
  connection.sendNode(entry.node)
}

/** At login: everything not acknowledged, oldest first, marked `offline` as the server marks its queue. */
export function relayOfflineQueue(connection: Connection, account: Account): number {
  for (const { node } of account.unacknowledged.values())
    connection.sendNode({ ...node, attrs: { ...node.attrs, offline: '1' } })
  return account.unacknowledged.size
}
