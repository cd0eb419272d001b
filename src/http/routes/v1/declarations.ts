import type { RouteConfig } from '@hono/zod-openapi'
import { callEndpoints } from './calls'
import { channelEndpoints } from './channels'
import { chatEndpoints } from './chats'
import { contactEndpoints } from './contacts'
import { eventEndpoints } from './events'
import { groupEndpoints } from './groups'
import { labelEndpoints } from './labels'
import { messageEndpoints } from './messages'
import { sessionEndpoints } from './sessions'
import { statusEndpoints } from './status'
import { webhookEndpoints } from './webhooks'
import { workspaceEndpoints } from './workspace'

/**
 * Every workspace resource's endpoint list, in the order v1Routes mounts them. A route is
 * added to its resource's list only; a resource is added here and to v1Routes
 * (test/http/routes/v1/declarations.test.ts fails when the two differ).
 */
export const v1Endpoints = [
  ...sessionEndpoints,
  ...messageEndpoints,
  ...chatEndpoints,
  ...contactEndpoints,
  ...workspaceEndpoints,
  ...webhookEndpoints,
  ...eventEndpoints,
  ...groupEndpoints,
  ...callEndpoints,
  ...statusEndpoints,
  ...channelEndpoints,
  ...labelEndpoints,
] as const

/**
 * Every workspace /v1 route's declaration (its createRoute object), without handlers: what the
 * edge Worker routes by and builds its OpenAPI document from, where no gateway context exists.
 */
export const v1Declarations: readonly RouteConfig[] = v1Endpoints.map((entry) => entry.route)
