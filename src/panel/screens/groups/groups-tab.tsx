/**
 * The session's groups (GET /v1/group/all) and, when the URL names one, that group's page. Both are
 * read again shortly after a group.* event of the session: the gateway's group store follows
 * WhatsApp's notifications, so the list shows what others changed without a reload.
 */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { GroupSummaryView } from '../../../schemas/group'
import { ErrorText, TableBox, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import { onEvent } from '../../live'
import { href } from '../../router'
import type { Session } from '../../sessions'
import { GroupDetail } from './group-detail'
import { texts } from './texts'

const t = translator(texts)

/** The settings a group restricts, as one short line. */
export const settingsLine = (group: { announce: boolean; restrict: boolean }) =>
  [group.announce && t('onlyAdminsSend'), group.restrict && t('onlyAdminsEdit')].filter(Boolean).join(' · ') ||
  t('open')

export function GroupsTab({ session, groupId }: { session: Session; groupId: string | null }) {
  const [groups, setGroups] = useState<GroupSummaryView[] | null>(null)
  // Bumped after group events so the open group is read again too.
  const [version, setVersion] = useState(0)
  const [error, run] = useAction()
  const sessionId = session.sessionId
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(() => {
    const load = () =>
      run(async () =>
        setGroups(
          (await api<{ groups: GroupSummaryView[] }>('GET', path`/v1/group/all?sessionId=${sessionId}`)).groups,
        ),
      )
    void load()
    const off = onEvent((event) => {
      if (event.sessionId !== sessionId || !event.type.startsWith('group.')) return
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        void load()
        setVersion((v) => v + 1)
      }, 300)
    })
    return () => {
      off()
      if (timer.current) clearTimeout(timer.current)
    }
    // A session that becomes connected can answer what it refused before.
  }, [sessionId, session.status])

  const link = (item: string | null) => href({ screen: 'session', sessionId, tab: 'groups', item })
  return (
    <>
      {groupId ? <GroupDetail session={session} groupId={groupId} version={version} back={link(null)} /> : null}
      <section id="groups">
        <h2>{t('groups')}</h2>
        {groups === null && !error ? <p class="muted">{t('loading')}</p> : null}
        {groups?.length === 0 ? <p class="muted">{t('noGroups')}</p> : null}
        {groups?.length ? (
          <TableBox label={t('groups')}>
            <table>
              <thead>
                <tr>
                  <th>{t('colSubject')}</th>
                  <th>{t('colMembers')}</th>
                  <th>{t('colRole')}</th>
                  <th>{t('colSettings')}</th>
                </tr>
              </thead>
              <tbody id="group-list">
                {groups.map((g) => (
                  <tr data-id={g.groupId} class={g.groupId === groupId ? 'selected' : ''}>
                    <td class="text">
                      <a href={link(g.groupId)} aria-current={g.groupId === groupId ? 'page' : undefined}>
                        {g.subject}
                      </a>
                    </td>
                    <td>{String(g.size)}</td>
                    <td>{g.isAdmin ? <span class="role admin">{t('roleAdmin')}</span> : t('roleMember')}</td>
                    <td>{settingsLine(g)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        ) : null}
        <ErrorText id="groups-error" message={error} />
      </section>
    </>
  )
}
