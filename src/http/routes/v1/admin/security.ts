/** The admin routes' only credential: ADMIN_API_KEY as a bearer (plus the deployment key when set). */
export const adminSecurity: Record<string, string[]>[] = [{ adminBearer: [] }, { adminBearer: [], deploymentKey: [] }]

const iso = (value: Date | null) => (value ? value.toISOString() : null)

export const workspaceView = (w: { id: string; name: string; plan: 'free' | 'paid'; createdAt: Date; updatedAt: Date }) => ({
  id: w.id,
  name: w.name,
  plan: w.plan,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
})

export const keyView = (k: { id: string; workspace: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }) => ({
  keyId: k.id,
  workspace: k.workspace,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
})
