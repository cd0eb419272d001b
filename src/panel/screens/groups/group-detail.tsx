/** One group (GET /v1/group/{groupId}): its info, settings, participants with their admin marks, invite link. */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { GroupView } from '../../../schemas/group'
import { ErrorText, TableBox, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { formatDateTime, translator } from '../../i18n'
import type { Session } from '../../sessions'
import { InviteLink } from './invite-link'
import { texts } from './texts'

const t = translator(texts)

type Party = { phone: string | null; lid: string | null }
/** How a member reads: the number where WhatsApp revealed it, else the LID. */
const partyName = (party: Party | null) => (party?.phone ? `+${party.phone}` : (party?.lid ?? t('unknown')))

const RoleMark = ({ admin }: { admin: 'superadmin' | 'admin' | null }) =>
  admin ? <span class={`role ${admin}`}>{t(admin)}</span> : null

export function GroupDetail({
  session,
  groupId,
  version,
  back,
}: {
  session: Session
  groupId: string
  version: number
  back: string
}) {
  const [group, setGroup] = useState<GroupView | null>(null)
  const [error, run] = useAction()
  const heading = useRef<HTMLHeadingElement | null>(null)
  const focusedFor = useRef<string | null>(null)

  useEffect(() => {
    if (group?.groupId !== groupId) setGroup(null)
    void run(async () =>
      setGroup(await api<GroupView>('GET', path`/v1/group/${groupId}?sessionId=${session.sessionId}`)),
    )
  }, [session.sessionId, groupId, version])

  // Opening a group moves focus to it (a keyboard or screen reader user lands on what they chose),
  // but a re-read after an event does not.
  useEffect(() => {
    if (group && focusedFor.current !== group.groupId) {
      focusedFor.current = group.groupId
      heading.current?.focus()
    }
  }, [group])

  const own = group?.participants.find((p) => p.phone !== null && p.phone === session.number)
  return (
    <section id="group" data-id={groupId}>
      <a href={back} id="group-back">
        {`← ${t('allGroups')}`}
      </a>
      {group ? (
        <>
          <h2 id="group-subject" ref={heading} tabindex={-1}>
            {group.subject}
          </h2>
          <dl class="facts" id="group-info">
            <dt>{t('description')}</dt>
            <dd class="prewrap" id="group-description">
              {group.description || t('noDescription')}
            </dd>
            <dt>{t('owner')}</dt>
            <dd id="group-owner">{partyName(group.owner)}</dd>
            <dt>{t('created')}</dt>
            <dd>{group.createdAt ? formatDateTime(group.createdAt) : t('unknown')}</dd>
            <dt>{t('members')}</dt>
            <dd>{String(group.size)}</dd>
            <dt>{t('messages')}</dt>
            <dd id="group-announce">{group.announce ? t('onlyAdminsSend') : t('everyoneSends')}</dd>
            <dt>{t('editInfo')}</dt>
            <dd id="group-restrict">{group.restrict ? t('onlyAdminsEdit') : t('everyoneEdits')}</dd>
            <dt>{t('yourRole')}</dt>
            <dd id="group-my-role">{own?.admin ? t(own.admin) : group.isAdmin ? t('admin') : t('roleMember')}</dd>
          </dl>
          <h3>{t('participants', { count: group.participants.length })}</h3>
          <TableBox label={t('participants', { count: group.participants.length })}>
            <table>
              <thead>
                <tr>
                  <th>{t('colPhone')}</th>
                  <th>{t('colAdmin')}</th>
                </tr>
              </thead>
              <tbody id="group-participants">
                {group.participants.map((p) => (
                  <tr data-phone={p.phone ?? ''} data-lid={p.lid ?? ''} data-admin={p.admin ?? ''}>
                    <td>
                      {partyName(p)}
                      {p === own ? <span class="muted">{` ${t('you')}`}</span> : null}
                    </td>
                    <td>
                      <RoleMark admin={p.admin} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
          <InviteLink session={session} group={group} />
        </>
      ) : (
        <h2>{t('group')}</h2>
      )}
      <ErrorText id="group-error" message={error} />
    </section>
  )
}
