import { z } from 'zod'
import { planNames } from '../plans'

export const WorkspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.enum(planNames),
    limits: z.object({
      interactiveMessages: z.boolean(),
      messageWebhooks: z.boolean(),
      dailyContactChecks: z.int(),
      maxSessions: z.int().meta({ description: 'Sessions pending, connecting or connected at once.' }),
    }),
  })
  .meta({ id: 'Workspace', description: 'The workspace the credential belongs to, and what its plan allows.' })
