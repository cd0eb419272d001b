import { createDocument } from 'zod-openapi'
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi'
import { codeToStatus, type ErrorCode } from '../errors'
import { ErrorSchema } from '../schemas/error'
import type { RouteSpec } from './route'

export const API_VERSION = '1.0.0'

function errorResponses(route: RouteSpec): ZodOpenApiOperationObject['responses'] {
  const codes = new Set<ErrorCode>(route.errors ?? [])
  if (route.auth !== false) codes.add('unauthorized')
  codes.add('internal_error')
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) byStatus.set(codeToStatus(code), [...(byStatus.get(codeToStatus(code)) ?? []), code])
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(', '), content: { 'application/json': { schema: ErrorSchema } } },
    ]),
  )
}

function operation(route: RouteSpec): ZodOpenApiOperationObject {
  return {
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    security: route.auth === false ? [] : [{ bearerAuth: [] }, { bearerAuth: [], deploymentKey: [] }],
    requestParams: route.params ? { path: route.params } : undefined,
    requestBody: route.body ? { required: true, content: { 'application/json': { schema: route.body } } } : undefined,
    responses: {
      '200': { description: route.response.description, content: { 'application/json': { schema: route.response.schema } } },
      ...errorResponses(route),
    },
  }
}

export function buildOpenApiDocument(routes: RouteSpec[]) {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method]: operation(route) }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Messaging Session Service',
      version: API_VERSION,
      description:
        'Links WhatsApp accounts to workspaces through sessions, sends messages, checks numbers and delivers events to webhooks.',
    },
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key issued with the CLI (`key create`), or an HS256 JWT when the operator set JWT_SECRET.',
        },
        deploymentKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Required in addition when the operator set DEPLOYMENT_API_KEY.',
        },
      },
    },
  })
}
