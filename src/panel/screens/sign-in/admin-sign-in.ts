/**
 * Signing in with the operator's admin key: kept only if GET /v1/admin/workspaces accepts it. A
 * refusal is told apart from a gateway without the admin API (ADMIN_API_KEY unset: the routes do
 * not exist, so any key is just a wrong workspace key there) by the public OpenAPI document, which
 * lists the admin routes only when they are mounted.
 */
import { ApiError, api, base, credentials } from '../../api'
import { translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)
const ADMIN_PATH = '/v1/admin/workspaces'

export async function signInAsAdmin(key: string, deploymentKey: string): Promise<string | null> {
  credentials.save(key, deploymentKey, 'admin')
  try {
    await api('GET', ADMIN_PATH)
    return null
  } catch (error) {
    credentials.clear()
    if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 404)) return (error as Error).message
    const enabled = await adminApiMounted(deploymentKey)
    return enabled === false ? t('adminDisabled') : t('adminRefused')
  }
}

/** Whether /openapi.json lists the admin routes; null when it cannot be read. */
async function adminApiMounted(deploymentKey: string): Promise<boolean | null> {
  try {
    const response = await fetch(`${base}/openapi.json`, {
      headers: deploymentKey ? { 'x-api-key': deploymentKey } : {},
    })
    if (!response.ok) return null
    const document = (await response.json()) as { paths?: Record<string, unknown> }
    return ADMIN_PATH in (document.paths ?? {})
  } catch {
    return null
  }
}
