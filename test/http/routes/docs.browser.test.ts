import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { launchChromium } from '../../support/browser'

describe('GET /docs in headless Chromium', () => {
  let t: TestGateway
  let server: ServerType
  let browser: Browser
  let baseUrl: string
  const externalRequests: string[] = []

  beforeAll(async () => {
    t = await startTestGateway()
    await new Promise<void>((resolve) => {
      server = serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve())
    })
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
    await t?.close()
  })

  it('renders the API reference from local assets only', async () => {
    const page = await browser.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) externalRequests.push(request.url())
    })
    await page.goto(`${baseUrl}/docs`)
    await page.getByText('Messaging Session Service').first().waitFor({ timeout: 20_000 })
    const text = await page.locator('#swagger-ui').innerText()
    expect(text).toContain('1.0.0')
    expect(text).toContain('/v1/workspace')
    expect(externalRequests).toEqual([])
    await page.close()
  }, 60_000)
})
