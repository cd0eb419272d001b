import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../support/gateway'

/**
 * What a new user does: generate types from the served /openapi.json with openapi-typescript
 * (default options) and call the API with openapi-fetch exactly as the spec shows. If the
 * document drew a request in zod's output form (e.g. `mode`, which defaults to "qr", as
 * required), these calls would not compile.
 */
const seedStyleCalls = `
import createClient from 'openapi-fetch'
import type { paths } from './api'

const client = createClient<paths>({ baseUrl: 'http://localhost:3000' })

export async function calls() {
  const connected = await client.POST('/v1/session/connect', {
    body: { sessionName: 'sales', webhookUrl: 'https://hooks.invalid/wa' },
  })
  const qr: string | undefined = connected.data?.qrCode

  await client.PUT('/v1/session/update/{id}', { params: { path: { id: 'ses_1' } }, body: { autoRejectCalls: true } })
  await client.DELETE('/v1/session/disconnect/{session_id}', { params: { path: { session_id: 'ses_1' } } })
  const listed = await client.GET('/v1/session/all')
  const connectedFlags: boolean[] | undefined = listed.data?.sessions.map((s) => s.connected)

  const sent = await client.POST('/v1/message/text', { body: { sessionId: 'ses_1', phone: '15551230001', message: 'hi' } })
  // The SDK's names are accepted as well (to, text).
  await client.POST('/v1/message/text', { body: { sessionId: 'ses_1', to: '15551230001', text: 'hi' } })
  const sentStatus: string | undefined = sent.data?.status

  const checked = await client.POST('/v1/contact/check', { body: { sessionId: 'ses_1', phones: ['15551230001'] } })
  const total: number | undefined = checked.data?.summary.total
  const errorCode: string | undefined = checked.error?.error
  return { qr, connectedFlags, sentStatus, total, errorCode }
}
`

function typeErrors(dir: string): string[] {
  const require = createRequire(import.meta.url)
  const openapiFetch = dirname(require.resolve('openapi-fetch/package.json'))
  const program = ts.createProgram([join(dir, 'calls.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    // The temp dir has no node_modules: point the import at the project's copy.
    paths: { 'openapi-fetch': [openapiFetch] },
  })
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

describe('a client generated from /openapi.json', () => {
  let t: TestGateway
  let dir: string
  beforeAll(async () => {
    t = await startTestGateway()
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'))
  })
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    await t.close()
  })

  it('compiles the calls the spec shows (optional fields left out)', async () => {
    const document = (await (await t.request('/openapi.json')).json()) as Parameters<typeof openapiTS>[0]
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(document)))
    writeFileSync(join(dir, 'calls.ts'), seedStyleCalls)
    expect(typeErrors(dir)).toEqual([])
  }, 20_000)

  it('fails to compile a call that leaves out a required field (the check has teeth)', () => {
    writeFileSync(join(dir, 'calls.ts'), seedStyleCalls.replace("sessionName: 'sales', ", ''))
    expect(typeErrors(dir).join('\n')).toMatch(/sessionName/)
  }, 20_000)

  it.each([
    ['a text send with neither phone nor to', "phone: '15551230001', message: 'hi'", "message: 'hi'"],
    ['a text send with neither message nor text', "phone: '15551230001', message: 'hi'", "phone: '15551230001'"],
    ['a session update with no field', 'body: { autoRejectCalls: true }', 'body: {}'],
  ])(
    'fails to compile %s: canonical-or-alias and at-least-one reach the document',
    (_, from, to) => {
      expect(seedStyleCalls).toContain(from)
      writeFileSync(join(dir, 'calls.ts'), seedStyleCalls.replace(from, to))
      expect(typeErrors(dir)).not.toEqual([])
    },
    20_000,
  )
})
