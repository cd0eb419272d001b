import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import { z } from 'zod'
import { createDocument } from 'zod-openapi'
import type { oas31, ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiRequestBodyObject } from 'zod-openapi'
import { withSharedAnswers } from './shared-answers'
import { webhookCatalogue } from './webhooks'

export const API_VERSION = '1.0.0'

/**
 * Why zod-openapi renders the document and not @hono/zod-openapi's own generator: routes are
 * declared with @hono/zod-openapi (`createRoute`), but its generator draws one schema per zod
 * type, whereas zod-openapi draws requests in zod's INPUT form (a field with a default is
 * optional) and responses in its OUTPUT form, and names components from `.meta({ id })`.
 * The two take the same OpenAPI-shaped route objects, so the translation below is small.
 */

type Route = Omit<RouteConfig, 'middleware'>
type Definitions = OpenAPIHono['openAPIRegistry']['definitions']

/** The routes an app registered (its `openAPIRegistry`), in order. */
export const registeredRoutes = (definitions: Definitions): Route[] =>
  definitions.flatMap((definition) => (definition.type === 'route' ? [definition.route as Route] : []))

/**
 * A request body is registered under components/requestBodies (named by its schema's id) with
 * the schema inline, not as a $ref to components/schemas. Reason: openapi-typescript (with its
 * default `defaultNonNullable`) makes every property that has a `default` required, except under
 * a request body or parameter path; a body schema reached through components/schemas would make
 * `mode` (default "qr") mandatory in generated clients.
 */
function withoutId(schema: z.ZodType): z.ZodType {
  const { id: _id, ...meta } = z.globalRegistry.get(schema) ?? {}
  // An explicit def makes a copy with no `parent` link; through that link zod would still
  // emit a $ref to the original's component.
  const copy = schema.clone(schema._zod.def)
  z.globalRegistry.add(copy, meta)
  return copy
}

function requestBody(body: NonNullable<Route['request']>['body']): ZodOpenApiRequestBodyObject | undefined {
  if (!body) return undefined
  const media = body.content['application/json']
  const schema = media && 'schema' in media ? media.schema : undefined
  const id = schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.id : undefined
  if (!id || !(schema instanceof z.ZodType)) return body as ZodOpenApiRequestBodyObject
  return { ...body, id, content: { 'application/json': { ...media, schema: withoutId(schema) } } }
}

const isEmptyObject = (schema: unknown) => schema instanceof z.ZodObject && Object.keys(schema.shape).length === 0

function operation({ method, path, request, hide: _h, responses, ...rest }: Route): ZodOpenApiOperationObject {
  // zod-openapi wants absent parts left out, not set to undefined; an empty object (the strict
  // query http/router.ts gives a route that takes none) would add `parameters: []`.
  const requestParams = Object.fromEntries(
    Object.entries({
      path: request?.params,
      query: request?.query,
      header: Array.isArray(request?.headers) ? undefined : request?.headers,
      cookie: request?.cookies,
    }).filter(([, schema]) => schema !== undefined && !isEmptyObject(schema)),
  )
  const body = requestBody(request?.body)
  const secured = (rest.security ?? []).some((requirement) => Object.keys(requirement).length > 0)
  return {
    ...rest,
    responses: withSharedAnswers({ method, path, secured }, responses),
    ...(Object.keys(requestParams).length ? { requestParams } : {}),
    ...(body ? { requestBody: body } : {}),
  } as ZodOpenApiOperationObject
}

/**
 * The document, built from route declarations (@hono/zod-openapi's `createRoute` objects).
 * `admin`: the operator enabled /v1/admin (ADMIN_API_KEY), so its tag and credential are described;
 * `metrics`: likewise /metrics (METRICS_TOKEN).
 */
export function buildOpenApiDocument(
  routes: readonly Route[],
  options: { admin?: boolean; metrics?: boolean } = {},
): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes) {
    if (route.hide) continue
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) }
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Messaging Session Service',
        version: API_VERSION,
        description:
          'Links WhatsApp accounts to workspaces through sessions, sends messages, checks numbers and delivers events to webhooks.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Replaced per request by the mount point the document is served under (see routes/docs.ts).
      servers: [{ url: '/' }],
      tags: [
        { name: 'Sessions', description: 'Link WhatsApp accounts by QR or pairing code, and manage them.' },
        {
          name: 'Contacts',
          description: 'Which numbers have a WhatsApp account, their profiles, the block list and presence.',
        },
        { name: 'Calls', description: 'Incoming calls: reject one while it rings.' },
        {
          name: 'Status',
          description: 'Statuses (stories): post text, images and videos to contacts, and take them down.',
        },
        {
          name: 'Channels',
          description: 'WhatsApp Channels (newsletters): the ones followed or run, their posts, follow and unfollow.',
        },
        {
          name: 'Labels',
          description:
            'WhatsApp Business labels: create, rename, recolour, delete, and put them on chats and messages.',
        },
        { name: 'Workspace', description: 'Who a credential acts for.' },
        {
          name: 'Webhooks',
          description: 'Event delivery: the log, retries and replays. The events themselves are under `webhooks`.',
        },
        { name: 'Events', description: 'The same events as webhooks, as a live Server-Sent Events stream.' },
        {
          name: 'Chatwoot',
          description: 'A session’s chats mirrored into a Chatwoot inbox, both ways (docs/chatwoot.md).',
        },
        ...(options.admin
          ? [{ name: 'Admin', description: 'Workspaces and API keys, for the operator (ADMIN_API_KEY).' }]
          : []),
        ...(options.metrics
          ? [{ name: 'Metrics', description: 'Prometheus metrics, for the operator (METRICS_TOKEN).' }]
          : []),
      ],
      paths,
      webhooks: webhookCatalogue(),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key issued with the CLI (`key create`), or an HS256 JWT when the operator set JWT_SECRET.',
          },
          deploymentKey: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'Required in addition when the operator set DEPLOYMENT_API_KEY.',
          },
          ...(options.admin
            ? { adminBearer: { type: 'http' as const, scheme: 'bearer', description: 'The operator’s ADMIN_API_KEY.' } }
            : {}),
          ...(options.metrics
            ? {
                metricsBearer: {
                  type: 'http' as const,
                  scheme: 'bearer',
                  description: 'The operator’s METRICS_TOKEN.',
                },
              }
            : {}),
        },
      },
    },
    {
      // Responses stay open (zod draws output objects closed): a strict generated client must
      // not break on a field added in a later release.
      override: ({ io, jsonSchema }) => {
        if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties
      },
    },
  )
}
