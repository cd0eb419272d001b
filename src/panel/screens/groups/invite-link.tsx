/**
 * A group's invite link (GET /v1/group/{groupId}/invite), copied with a button and reset after a
 * confirmation (POST …/invite/revoke). Both are for the group's admins only: for anyone else the
 * API would answer 403, so the panel says so instead of asking.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import type { GroupView } from '../../../schemas/group'
import { CopyButton, ErrorText, StatusText, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { translator } from '../../i18n'
import type { Session } from '../../sessions'
import { texts } from './texts'

const t = translator(texts)

interface Invite {
  inviteCode: string
  inviteLink: string
}

export function InviteLink({ session, group }: { session: Session; group: GroupView }) {
  const [invite, setInvite] = useState<Invite | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [error, run, busy] = useAction()
  const { groupId, isAdmin } = group

  useEffect(() => {
    setInvite(null)
    setStatus(null)
    if (!isAdmin) return
    void run(async () =>
      setInvite(await api<Invite>('GET', path`/v1/group/${groupId}/invite?sessionId=${session.sessionId}`)),
    )
  }, [session.sessionId, groupId, isAdmin])

  const revoke = () => {
    if (!confirm(t('confirmRevoke', { subject: group.subject }))) return
    setStatus(null)
    void run(async () => {
      setInvite(await api<Invite>('POST', path`/v1/group/${groupId}/invite/revoke`, { sessionId: session.sessionId }))
      setStatus(t('revoked'))
    })
  }

  return (
    <div id="group-invite">
      <h3>{t('inviteLink')}</h3>
      {!isAdmin ? (
        <p class="muted" id="group-invite-admins-only">
          {t('inviteAdminsOnly')}
        </p>
      ) : (
        <>
          <p class="muted small">{t('inviteHint')}</p>
          <p class="secret">
            <code id="group-invite-link">{invite?.inviteLink ?? (error ? '' : t('loading'))}</code>
            {invite ? <CopyButton key={invite.inviteLink} id="group-invite-copy" value={invite.inviteLink} /> : null}
          </p>
          <div class="row">
            <button type="button" class="danger" id="group-invite-revoke" disabled={busy || !invite} onClick={revoke}>
              {t('revoke')}
            </button>
          </div>
        </>
      )}
      <StatusText id="group-invite-status" message={status} />
      <ErrorText id="group-invite-error" message={error} />
    </div>
  )
}
