import { registerSchema, unregisterSchema, validate } from '@hyperjump/json-schema/openapi-3-1'
import { BASIC } from '@hyperjump/json-schema/experimental'

/**
 * Checks a request against an OpenAPI 3.1 document the way Chatwoot's published contract reads:
 * the path and method must be an operation, its path and query parameters must match their
 * schemas (an undeclared query parameter is a mistake too: it is silently ignored by Chatwoot),
 * the security header must be there, and a body must come in a declared media type and match that
 * media type's schema, validated by @hyperjump/json-schema with the document's own components
 * (as test/support/openapi-answers.ts does for answers).
 */

export interface MatchedOperation {
  /** The document's path template, e.g. /api/v1/accounts/{account_id}/contacts/{id} */
  path: string
  method: string
  spec: any
  /** Path parameters as sent (strings). */
  params: Record<string, string>
}

export interface IncomingRequest {
  method: string
  pathname: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  /** A JSON body as parsed, a multipart body as fields (files as their names), undefined if none. */
  body: unknown
  /** The body's media type without parameters; '' when there is no body. */
  mediaType: string
  /** The body was sent but could not be parsed as its media type. */
  malformed?: string
}

export interface RequestContract {
  match(method: string, pathname: string): MatchedOperation | undefined
  /** Every way the request breaks the document; empty when it keeps it. */
  problems(request: IncomingRequest): Promise<string[]>
  close(): void
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

const pointer = (...segments: string[]) =>
  segments.map((s) => `/${encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('')

let registered = 0

export function requestContract(document: any): RequestContract {
  const uri = `https://chatwoot.test/openapi-${++registered}.json`
  registerSchema(document, uri, 'https://spec.openapis.org/oas/3.1/schema-base')
  const check = async (where: string, location: string[], value: unknown): Promise<string[]> => {
    const output = await validate(`${uri}#${pointer(...location)}`, value as never, BASIC)
    if (output.valid) return []
    const errors = (output.errors ?? []).map((e) => `${e.instanceLocation} ${e.absoluteKeywordLocation.split('#')[1]}`)
    return [`${where} does not match the schema: ${errors.slice(0, 3).join('; ')}`]
  }

  // Literal segments win over parameters (/contacts/search before /contacts/{id}), as Rails routes.
  const templates = Object.keys(document.paths)
    .map((path) => ({
      path,
      names: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
    }))
    .sort((a, b) => a.names.length - b.names.length)

  const locate = (path: string) => templates.find((t) => t.pattern.test(path))

  // A parameter and where its schema lives in the document (following a components $ref).
  const parametersOf = (path: string, method: string) => {
    const found = new Map<string, { spec: any; location: string[] }>()
    const add = (list: any[] | undefined, base: string[]) =>
      (list ?? []).forEach((entry, index) => {
        const name = entry.$ref?.split('/').pop()
        const spec = name ? document.components.parameters[name] : entry
        const location = name ? ['components', 'parameters', name] : [...base, 'parameters', String(index)]
        found.set(`${spec.in}:${spec.name}`, { spec, location })
      })
    add(document.paths[path].parameters, ['paths', path])
    add(document.paths[path][method].parameters, ['paths', path, method])
    return [...found.values()]
  }

  // Path and query values are text; the schema's type says how to read them.
  const coerce = (schema: any, raw: string): unknown => {
    const types = [schema?.type].flat()
    if (types.includes('integer') && /^-?\d+$/.test(raw)) return Number(raw)
    if (types.includes('number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw)
    if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true'
    return raw
  }

  return {
    match(method, pathname) {
      const template = locate(pathname)
      const spec = template && document.paths[template.path][method.toLowerCase()]
      if (!template || !spec) return undefined
      const values = template.pattern.exec(pathname)!.slice(1)
      const params = Object.fromEntries(template.names.map((name, i) => [name, decodeURIComponent(values[i]!)]))
      return { path: template.path, method: method.toLowerCase(), spec, params }
    },
    async problems(request) {
      const method = request.method.toLowerCase()
      const template = locate(request.pathname)
      if (!template) return [`no path of the document matches ${request.pathname}`]
      const spec = document.paths[template.path][method]
      if (!spec || !METHODS.includes(method as never))
        return [`${request.method} is not an operation of ${template.path}`]
      const found: string[] = []
      const operation = this.match(request.method, request.pathname)!

      const declared = parametersOf(template.path, method)
      for (const { spec: parameter, location } of declared) {
        const raw = parameter.in === 'path' ? operation.params[parameter.name] : request.query.get(parameter.name)
        if (parameter.in !== 'path' && parameter.in !== 'query') continue
        if (raw === null || raw === undefined) {
          if (parameter.required) found.push(`${parameter.in} parameter ${parameter.name} is required`)
          continue
        }
        found.push(
          ...(await check(
            `${parameter.in} parameter ${parameter.name}`,
            [...location, 'schema'],
            coerce(parameter.schema, raw),
          )),
        )
      }
      const queryNames = new Set(declared.filter((d) => d.spec.in === 'query').map((d) => d.spec.name))
      for (const name of new Set(request.query.keys()))
        if (!queryNames.has(name)) found.push(`query parameter ${name} is not declared`)

      const schemes = (spec.security ?? document.security ?? []).flatMap((r: object) => Object.keys(r))
      const headers = new Set(schemes.map((s: string) => document.components.securitySchemes[s].name.toLowerCase()))
      if (headers.size && ![...headers].some((h) => request.headers[h as string] !== undefined))
        found.push(`security header ${[...headers].join(' or ')} is missing`)

      const body = spec.requestBody
      if (!body) {
        if (request.mediaType) found.push(`the operation takes no body, got ${request.mediaType}`)
        return found
      }
      if (!request.mediaType) {
        if (body.required) found.push('the request body is required')
        return found
      }
      if (!body.content[request.mediaType]) {
        found.push(`body media type ${request.mediaType} is not declared (${Object.keys(body.content).join(', ')})`)
        return found
      }
      if (request.malformed) return [...found, `the ${request.mediaType} body is malformed: ${request.malformed}`]
      const location = ['paths', template.path, method, 'requestBody', 'content', request.mediaType, 'schema']
      found.push(...(await check(`${request.mediaType} body`, location, request.body)))
      return found
    },
    close: () => unregisterSchema(uri),
  }
}
