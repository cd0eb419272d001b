import { createRoute } from '@hono/zod-openapi'
import type { z } from 'zod'
import type { ErrorCode } from '../../../../errors'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema } from '../../../../schemas/message-record'
import type { GatewayContext } from '../../../../services/context'
import type { SendInput } from '../../../../services/messages/send/prepare'
import { sendMessage } from '../../../../services/messages/send/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, SENT_DESCRIPTION } from './send-common'

type SendKind = SendInput['kind']

interface SendSpec<Path extends string, Body extends z.ZodType, Codes extends readonly ErrorCode[]> {
  kind: SendKind
  operationId: string
  path: Path
  summary: string
  description: string
  body: Body
  errors: Codes
  /** The OpenAPI tag; `Messages` unless said. */
  tag?: string
}

/**
 * The sends share one contract: a JSON body, an optional Idempotency-Key, the record as
 * the answer. Each send file states only what differs (path, body schema, words, errors);
 * the route keeps its literal path and body types, so hc<AppType> still infers them.
 */
export function sendEndpoint<Path extends string, Body extends z.ZodType, const Codes extends readonly ErrorCode[]>(
  spec: SendSpec<Path, Body, Codes>,
) {
  const route = createRoute({
    operationId: spec.operationId,
    method: 'post',
    path: spec.path,
    tags: [spec.tag ?? 'Messages'],
    summary: spec.summary,
    description: spec.description,
    security: bearerSecurity,
    request: { headers: IdempotencyHeaders, body: jsonBody(spec.body) },
    responses: {
      200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
      ...errorResponses(spec.errors),
    },
  })
  const endpoint = (ctx: GatewayContext) =>
    createRouter().openapi(route, async (c) => {
      // Inside a generic factory TypeScript cannot resolve the validated types; the schemas did.
      const valid = c.req.valid.bind(c.req) as unknown as (target: 'json' | 'header') => Record<string, unknown>
      const record = await sendMessage(ctx, {
        workspaceId: c.get('workspace').id,
        plan: c.get('plan'),
        input: { kind: spec.kind, ...valid('json') } as SendInput,
        idempotencyKey: valid('header')['idempotency-key'] as string | undefined,
      })
      return c.json(record, 200)
    })
  return { route, endpoint }
}
