/**
 * The API keys of every workspace: revoke one (after a confirmation), or issue a new one, whose
 * key the API answers this once: shown with a copy button until the screen is left.
 */
import { useState } from 'hono/jsx/dom'
import { CopyButton, ErrorText, StatusText, TableBox, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { formatDateTime, translator } from '../../i18n'
import type { AdminKey, AdminWorkspace, IssuedKey } from './admin-api'
import { texts } from './texts'

const t = translator(texts)

export function ApiKeys({
  keys,
  workspaces,
  reload,
}: {
  keys: AdminKey[]
  workspaces: AdminWorkspace[]
  reload: () => Promise<void>
}) {
  const [error, run, busy] = useAction()
  const [status, setStatus] = useState<string | null>(null)
  const [issued, setIssued] = useState<{ workspace: string; key: string } | null>(null)
  return (
    <section>
      <h2>{t('keys')}</h2>
      <TableBox label={t('keys')}>
        <table>
          <thead>
            <tr>
              <th>{t('colWorkspace')}</th>
              <th>{t('colPrefix')}</th>
              <th>{t('colCreated')}</th>
              <th>{t('colLastUsed')}</th>
              <th>{t('colState')}</th>
            </tr>
          </thead>
          <tbody id="admin-keys">
            {keys.map((k) => (
              <tr data-id={k.keyId} data-revoked={k.revokedAt ? 'true' : 'false'}>
                <td class="text">{k.workspace}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{formatDateTime(k.createdAt)}</td>
                <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t('never')}</td>
                <td>
                  {k.revokedAt ? (
                    <span class="muted">{t('revokedAt', { time: formatDateTime(k.revokedAt) })}</span>
                  ) : (
                    <button
                      type="button"
                      class="danger small revoke"
                      aria-label={t('revokeLabel', { prefix: k.prefix })}
                      disabled={busy}
                      onClick={() => {
                        if (!confirm(t('confirmRevoke', { prefix: k.prefix, workspace: k.workspace }))) return
                        setStatus(null)
                        void run(async () => {
                          await api('DELETE', path`/v1/admin/keys/${k.keyId}`)
                          await reload()
                          setStatus(t('revoked', { prefix: k.prefix }))
                        })
                      }}
                    >
                      {t('revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {keys.length === 0 ? <p class="muted">{t('noKeys')}</p> : null}
      <h3>{t('newKey')}</h3>
      <form
        class="row"
        onSubmit={(event: Event) => {
          event.preventDefault()
          const workspace = String(new FormData(event.currentTarget as HTMLFormElement).get('workspace'))
          setStatus(null)
          void run(async () => {
            const created = await api<IssuedKey>('POST', '/v1/admin/keys', { workspace })
            const name = workspaces.find((w) => w.id === created.workspaceId)?.name ?? workspace
            setIssued({ workspace: name, key: created.key })
            await reload()
          })
        }}
      >
        <label class="grow">
          {t('forWorkspace')}
          <select id="new-key-workspace" name="workspace" required>
            {workspaces.map((w) => (
              <option value={w.id}>{w.name}</option>
            ))}
          </select>
        </label>
        <button type="submit" id="create-key" disabled={busy || workspaces.length === 0}>
          {t('createKey')}
        </button>
      </form>
      {issued ? (
        <div class="issued-key" id="issued-key">
          <p>{t('keyShownOnce', { workspace: issued.workspace })}</p>
          <p class="secret">
            <code id="new-key">{issued.key}</code>
            <CopyButton id="copy-new-key" value={issued.key} />
          </p>
        </div>
      ) : null}
      <StatusText id="keys-status" message={status} />
      <ErrorText id="keys-error" message={error} />
    </section>
  )
}
