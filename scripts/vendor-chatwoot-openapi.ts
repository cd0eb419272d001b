/**
 * Cuts the Chatwoot stand-in's contract out of Chatwoot's published OpenAPI document.
 *
 *   npx tsx scripts/vendor-chatwoot-openapi.ts <chatwoot>/swagger/swagger.json <commit>
 *
 * Reads `swagger/swagger.json` of the chatwoot/chatwoot repository, keeps only the Application
 * API operations the gateway's Chatwoot client may call (OPERATIONS below) and every component
 * they reference, transitively, unchanged, and writes test/support/chatwoot/openapi.json.
 * Anything upstream got wrong is corrected in overlay.ts beside it, never here.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: upstream's document is untyped JSON, walked generically
import { readFileSync, writeFileSync } from 'node:fs'

const OPERATIONS: Record<string, string[]> = {
  '/api/v1/accounts/{account_id}/contacts': ['post'],
  '/api/v1/accounts/{account_id}/contacts/{id}': ['get', 'put', 'delete'],
  '/api/v1/accounts/{account_id}/contacts/{id}/conversations': ['get'],
  '/api/v1/accounts/{account_id}/contacts/search': ['get'],
  '/api/v1/accounts/{account_id}/contacts/{id}/contact_inboxes': ['post'],
  '/api/v1/accounts/{account_id}/conversations': ['post'],
  '/api/v1/accounts/{account_id}/conversations/{conversation_id}': ['get'],
  '/api/v1/accounts/{account_id}/conversations/{conversation_id}/toggle_status': ['post'],
  '/api/v1/accounts/{account_id}/inboxes': ['get', 'post'],
  '/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages': ['get', 'post'],
  '/api/v1/accounts/{account_id}/conversations/{conversation_id}/messages/{message_id}': ['delete'],
  '/api/v1/profile': ['get'],
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])

export function subset(upstream: any, source: string): any {
  const paths: Record<string, any> = {}
  // Upstream order, so a diff against a newer upstream reads in the same order.
  for (const [path, item] of Object.entries<any>(upstream.paths)) {
    const keep = OPERATIONS[path]
    if (!keep) continue
    const missing = keep.filter((method) => !item[method])
    if (missing.length) throw new Error(`upstream has no ${missing.join(', ')} ${path}`)
    paths[path] = Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key) || keep.includes(key)))
  }
  const absent = Object.keys(OPERATIONS).filter((path) => !(path in paths))
  if (absent.length) throw new Error(`upstream has no path ${absent.join(', ')}`)

  const wanted = new Map<string, Set<string>>()
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const [, kind, name] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value) ?? []
        if (!kind || !name) throw new Error(`unexpected $ref ${value}`)
        const names = wanted.get(kind) ?? wanted.set(kind, new Set()).get(kind)!
        if (names.has(name)) continue
        names.add(name)
        const target = upstream.components?.[kind]?.[name]
        if (!target) throw new Error(`upstream has no ${value}`)
        visit(target)
      } else visit(value)
    }
  }
  visit(paths)
  const schemes = new Set<string>()
  for (const item of Object.values<any>(paths))
    for (const [method, operation] of Object.entries<any>(item))
      if (METHODS.has(method))
        for (const requirement of operation.security ?? [])
          for (const name of Object.keys(requirement)) schemes.add(name)

  const components: Record<string, any> = {}
  for (const [kind, all] of Object.entries<any>(upstream.components)) {
    const names = kind === 'securitySchemes' ? schemes : wanted.get(kind)
    if (!names?.size) continue
    components[kind] = Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name)))
  }
  return {
    openapi: upstream.openapi,
    info: upstream.info,
    servers: upstream.servers,
    'x-vendored-from': source,
    paths,
    components,
  }
}

if (process.argv[1]?.endsWith('vendor-chatwoot-openapi.ts')) {
  const [file, commit] = process.argv.slice(2)
  if (!file || !commit) throw new Error('usage: vendor-chatwoot-openapi.ts <swagger.json> <commit>')
  const upstream = JSON.parse(readFileSync(file, 'utf8'))
  const source = `https://github.com/chatwoot/chatwoot/blob/${commit}/swagger/swagger.json`
  writeFileSync(
    new URL('../test/support/chatwoot/openapi.json', import.meta.url),
    `${JSON.stringify(subset(upstream, source), null, 2)}\n`,
  )
}
