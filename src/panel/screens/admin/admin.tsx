/** The operator's screen (signed in with ADMIN_API_KEY): workspaces, their plans and API keys. */
import { useEffect, useState } from 'hono/jsx/dom'
import { ErrorText, useAction } from '../../components/ui'
import { api } from '../../api'
import { translator } from '../../i18n'
import type { AdminKey, AdminWorkspace } from './admin-api'
import { ApiKeys } from './api-keys'
import { texts } from './texts'
import { Workspaces } from './workspaces'

const t = translator(texts)

export function AdminScreen() {
  const [workspaces, setWorkspaces] = useState<AdminWorkspace[]>([])
  const [keys, setKeys] = useState<AdminKey[]>([])
  const [error, run] = useAction()
  const reload = async () => {
    const [w, k] = await Promise.all([
      api<{ workspaces: AdminWorkspace[] }>('GET', '/v1/admin/workspaces'),
      api<{ keys: AdminKey[] }>('GET', '/v1/admin/keys'),
    ])
    setWorkspaces(w.workspaces)
    setKeys(k.keys)
  }
  useEffect(() => {
    void run(reload)
  }, [])
  return (
    <main id="main" class="wide" tabindex={-1}>
      <section>
        <h2>{t('heading')}</h2>
        <p class="muted">{t('intro')}</p>
        <ErrorText id="admin-error" message={error} />
      </section>
      <Workspaces workspaces={workspaces} reload={reload} />
      <ApiKeys keys={keys} workspaces={workspaces} reload={reload} />
    </main>
  )
}
