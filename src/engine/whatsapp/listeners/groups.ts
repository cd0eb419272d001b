import { jidDecode, type BinaryNode } from '@whiskeysockets/baileys'
import { toGroupNotices } from '../groups/group-notification'
import type { GroupInfo, GroupMember } from '../port/groups'
import type { ListenerContext } from './types'

/**
 * Group notifications (`w:gp2`), reported in the order they arrive, synchronously: the store and
 * the events are committed before Baileys acknowledges the notification to WhatsApp.
 */
export function attachGroupListener(
  { socket, logger, report }: ListenerContext,
  metadata: (jid: string) => Promise<GroupInfo>,
): void {
  const isSelf = (member: GroupMember) => {
    const own = [socket.user?.id, socket.user?.lid].map((jid) => (jid ? jidDecode(jid)?.user : undefined))
    return own.includes(member.phone) || own.includes(member.lid)
  }
  socket.ws.on('CB:notification,type:w:gp2', (node: BinaryNode) => {
    let notices: ReturnType<typeof toGroupNotices>
    try {
      notices = toGroupNotices(node)
    } catch (error) {
      return void logger.warn({ err: error, id: node.attrs.id }, 'could not read a group notification')
    }
    for (const notice of notices) {
      if (notice.kind !== 'participants' || notice.action !== 'add' || !notice.members.some(isSelf)) {
        report({ type: 'group', notice })
        continue
      }
      // Added to a group WhatsApp described only by the change: learn the group (one query)
      const others = notice.members.filter((member) => !isSelf(member))
      if (others.length > 0) report({ type: 'group', notice: { ...notice, members: others } })
      metadata(notice.groupJid).then(
        (group) =>
          report({
            type: 'group',
            notice: {
              kind: 'joined',
              groupJid: notice.groupJid,
              at: notice.at,
              group,
              ...(notice.author ? { author: notice.author } : {}),
              ...(notice.reason ? { reason: notice.reason } : {}),
            },
          }),
        (error: unknown) => logger.warn({ err: error, groupJid: notice.groupJid }, 'could not read a group joined'),
      )
    }
  })
}
