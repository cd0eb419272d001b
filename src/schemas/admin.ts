import { z } from 'zod'
import { planNames } from '../config'
import { workspaceName } from './workspace-name'

const Plan = z.enum(planNames)
const timestamp = z.iso.datetime()

export const AdminWorkspaceSchema = z
  .object({ id: z.string(), name: z.string(), plan: Plan, createdAt: timestamp, updatedAt: timestamp })
  .meta({ id: 'AdminWorkspace' })

export const AdminWorkspaceList = z
  .object({ workspaces: z.array(AdminWorkspaceSchema) })
  .meta({ id: 'AdminWorkspaceList' })

export const CreateWorkspaceBody = z
  .strictObject({
    name: workspaceName,
    plan: Plan.default('free'),
  })
  .meta({ id: 'CreateWorkspaceRequest', example: { name: 'acme', plan: 'paid' } })

export const WorkspaceParam = z.object({
  workspace: z.string().min(1).max(100).meta({ description: 'Workspace id or name' }),
})

export const SetPlanBody = z
  .strictObject({ plan: Plan })
  .meta({ id: 'SetWorkspacePlanRequest', example: { plan: 'paid' } })

export const CreateKeyBody = z
  .strictObject({ workspace: z.string().min(1).meta({ description: 'Workspace id or name' }) })
  .meta({ id: 'CreateApiKeyRequest', example: { workspace: 'acme' } })

export const IssuedKeySchema = z
  .object({
    keyId: z.string(),
    workspaceId: z.string(),
    prefix: z.string(),
    key: z.string().meta({ description: 'The API key itself: shown only in this answer, store it now.' }),
  })
  .meta({ id: 'IssuedApiKey' })

export const AdminKeySchema = z
  .object({
    keyId: z.string(),
    workspace: z.string(),
    prefix: z.string(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: 'AdminApiKey' })

export const AdminKeyList = z.object({ keys: z.array(AdminKeySchema) }).meta({ id: 'AdminApiKeyList' })

export const KeyListQuery = z.strictObject({
  workspace: z.string().min(1).optional().meta({ description: 'Only this workspace’s keys (id or name)' }),
})

export const KeyParam = z.object({ keyId: z.string().min(1).max(100) })

export const RevokedKeySchema = z.object({ keyId: z.string(), revoked: z.literal(true) }).meta({ id: 'RevokedApiKey' })
