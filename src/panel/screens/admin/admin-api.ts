/** The admin API's answers as the panel reads them (docs/api.md "Admin over HTTP"). */
import type { z } from 'zod'
import type { AdminKeySchema, AdminWorkspaceSchema, IssuedKeySchema } from '../../../schemas/admin'
import { planNames } from '../../../plans'

export type AdminWorkspace = z.infer<typeof AdminWorkspaceSchema>
export type AdminKey = z.infer<typeof AdminKeySchema>
export type IssuedKey = z.infer<typeof IssuedKeySchema>

export const PLANS = planNames
