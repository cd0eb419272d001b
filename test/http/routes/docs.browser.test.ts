import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../../support/gateway'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

describe('GET /docs in headless Chromium', () => {
  let t: TestGateway
  let server: ServerType
  let browser: Browser
  let baseUrl: string
  const externalRequests: string[] = []

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: .ci/run installs the Debian package`)
    t = await startTestGateway()
    await new Promise<void>((resolve) => {
      server = serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve())
    })
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
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
