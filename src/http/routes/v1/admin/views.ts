/** Rows as the admin API answers them: ids renamed for the outside, dates as ISO strings. */
const iso = (value: Date | null) => (value ? value.toISOString() : null)

export const workspaceView = (w: {
  id: string
  name: string
  plan: 'free' | 'paid'
  createdAt: Date
  updatedAt: Date
}) => ({
  id: w.id,
  name: w.name,
  plan: w.plan,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
})

export const keyView = (k: {
  id: string
  workspace: string
  prefix: string
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}) => ({
  keyId: k.id,
  workspace: k.workspace,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
})
