import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatwootCallbackRoute } from '../../../../src/http/routes/chatwoot/callback'
import { signedMediaRoute } from '../../../../src/http/routes/media/signed'
import { v1Declarations } from '../../../../src/http/routes/v1/declarations'
import { buildOpenApiDocument } from '../../../../src/openapi/document'
import { startTestGateway, type TestGateway } from '../../../support/gateway'

/**
 * The edge Worker routes by v1Declarations and builds its /openapi.json from it, with no gateway
 * context. Each resource's list pairs a declaration with what serves it (a mismatched pair does
 * not compile), so what is left to hold equal is the resource level: v1Endpoints against the
 * resources v1Routes mounts (and their order), and the registry's strict queries against the
 * plain declarations.
 */
describe('v1Declarations', () => {
  let t: TestGateway
  let served: any
  beforeAll(async () => {
    t = await startTestGateway()
    served = await (await t.request('/openapi.json')).json()
  })
  afterAll(() => t.close())

  it('gives the same OpenAPI document as the routes the Node app serves (with the signed media route, as the Worker does, and Chatwoot’s callback, which only Node serves)', () => {
    const declared = JSON.parse(
      JSON.stringify(buildOpenApiDocument([...v1Declarations, signedMediaRoute, chatwootCallbackRoute])),
    )
    expect(Object.keys(declared.paths)).toEqual(Object.keys(served.paths))
    expect(declared).toEqual(served)
  })

  it('declares each route once', () => {
    const keys = v1Declarations.map((route) => `${route.method} ${route.path}`)
    expect(new Set(keys).size).toBe(keys.length)
  })
})
