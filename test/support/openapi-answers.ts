import { registerSchema, unregisterSchema, validate } from '@hyperjump/json-schema/openapi-3-1'
import { BASIC } from '@hyperjump/json-schema/experimental'

/**
 * Checks answers against an OpenAPI 3.1 document the way a client generated from it reads
 * them: the status must be declared (exactly, as `4XX`, or `default`), then the media type
 * (exactly, as `type/*` or `*\/*`), then a JSON body must match that media type's schema,
 * validated by @hyperjump/json-schema in the OpenAPI 3.1 dialect with the document's own
 * components.
 */

export interface Operation {
  id: string
  method: string
  path: string
  spec: any
}

export interface Answer {
  status: number
  headers: Headers
  /** The body's text, for a JSON answer; undefined for others (their bytes are not schema-checked). */
  text?: string
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

export const operationsOf = (document: any): Operation[] =>
  Object.entries<any>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      id: item[method].operationId as string,
      method,
      path,
      spec: item[method],
    })),
  )

const pointer = (...segments: string[]) =>
  segments.map((s) => `/${encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('')

const isJson = (type: string) => /^application\/([\w.-]+\+)?json$/i.test(type)

function declaredStatus(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status)
  const range = `${String(status)[0]}XX`
  return [exact, range, 'default'].find((key) => key in responses)
}

function declaredMediaType(content: Record<string, unknown>, type: string): string | undefined {
  return [type, `${type.split('/')[0]}/*`, '*/*'].find((key) => key in content)
}

export interface DocumentValidator {
  /** What in the answer the document does not declare; empty when it is all declared. */
  problems(operation: Operation, answer: Answer): Promise<string[]>
  /** The response examples of the operation that do not match their own schema. */
  examples(operation: Operation): Promise<string[]>
  close(): void
}

let documents = 0

export function documentValidator(document: any): DocumentValidator {
  const uri = `https://gateway.test/openapi-${++documents}.json`
  // The document's own dialect, as the library reads a served application/openapi+json one.
  registerSchema(document, uri, 'https://spec.openapis.org/oas/3.1/schema-base')
  const check = async (where: string, location: string[], value: unknown): Promise<string[]> => {
    const output = await validate(`${uri}#${pointer(...location)}`, value as never, BASIC)
    if (output.valid) return []
    const errors = (output.errors ?? []).map((e) => `${e.instanceLocation} ${e.absoluteKeywordLocation.split('#')[1]}`)
    return [`${where}: does not match the schema: ${errors.slice(0, 3).join('; ')}`]
  }
  return {
    async examples(operation) {
      const found: string[] = []
      for (const [status, response] of Object.entries<any>(operation.spec.responses))
        for (const [type, media] of Object.entries<any>(response.content ?? {})) {
          const schema = ['paths', operation.path, operation.method, 'responses', status, 'content', type, 'schema']
          const examples = Object.entries<any>(media.examples ?? {}).map(([name, e]) => {
            const example = e.$ref ? document.components.examples[e.$ref.split('/').pop()] : e
            return [name, example?.value] as const
          })
          if ('example' in media) examples.push(['example', media.example])
          for (const [name, value] of examples)
            found.push(...(await check(`${operation.id} ${status} ${type} example ${name}`, schema, value)))
        }
      return found
    },
    async problems(operation, answer) {
      const where = `${operation.id} ${answer.status}`
      const status = declaredStatus(operation.spec.responses, answer.status)
      if (!status) return [`${where}: status ${answer.status} is not declared`]
      const response = operation.spec.responses[status]
      const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
      if (!response.content) return type ? [`${where}: declares no body, answered ${type}`] : []
      const mediaType = declaredMediaType(response.content, type)
      if (!mediaType) return [`${where}: content type ${type || '(none)'} is not declared`]
      if (!isJson(type) || answer.text === undefined) return []
      let body: unknown
      try {
        body = JSON.parse(answer.text)
      } catch {
        return [`${where}: ${type} body is not JSON`]
      }
      const schema = ['paths', operation.path, operation.method, 'responses', status, 'content', mediaType, 'schema']
      return check(`${where} body`, schema, body)
    },
    close: () => unregisterSchema(uri),
  }
}
