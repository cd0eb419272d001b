import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { panelScript, panelStyle, panelVersion } from '../../src/http/routes/panel/assets.generated'
import { startTestGateway, type TestGateway } from '../support/gateway'

/**
 * The panel as every runtime serves it (this file runs under Node with vitest and under Bun):
 * the page names the bundle's version, the bundle and the style are the built ones, all under the
 * strict CSP, and no credential is needed to load them.
 */
describe('the panel’s files', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway()
  })
  afterAll(() => t?.close())

  const get = (path: string) => t.gateway.app.fetch(new Request(`http://gateway.test${path}`))

  it('serves the page with the bundle’s version in its URLs and a strict CSP', async () => {
    const page = await get('/panel')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`./panel/app.js?v=${panelVersion}`)
    expect(html).toContain(`./panel/app.css?v=${panelVersion}`)
    expect(html).not.toMatch(/<script>|<style>|style="/) // nothing inline: the CSP allows none
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe')
    // blob: only where the inbox shows received files it fetched itself: never as script or a request.
    const blobIn = csp
      .split(';')
      .filter((directive) => directive.includes('blob:'))
      .map((d) => d.trim().split(' ')[0])
    expect(blobIn).toEqual(['img-src', 'media-src'])
  })

  it('serves the built bundle and style', async () => {
    const script = await get('/panel/app.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe(panelScript)
    expect(panelScript.length).toBeGreaterThan(10_000)
    const style = await get('/panel/app.css')
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await style.text()).toBe(panelStyle)
  })
})
