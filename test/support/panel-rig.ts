/**
 * The panel in a real browser against a real gateway: the app served over loopback, the WhatsApp
 * simulator behind it, the project's Chromium, and a page that records what no panel screen may
 * do (ask another origin, log a script error). Shared by the panel's browser tests, one rig per file.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { type RunningServer, serve } from '../../src/runtime/serve'
import { launchChromium } from './browser'
import { type SimulatedGateway, startSimulatedGateway } from './simulated-gateway'

/** Set to a folder (e.g. docs/images) to keep screenshots of the screens. */
const SCREENSHOTS = process.env.PANEL_SCREENSHOT_DIR

// In page.evaluate callbacks (they run in the browser) the page's globals come from globalThis,
// untyped: the tests are type-checked for Node, and the DOM's types clash with Node's.

export interface PanelRig {
  t: SimulatedGateway
  baseUrl: string
  browser: Browser
  page: Page
  /** Requests to anything but the gateway's origin (and data: and its blob: URLs): must stay empty. */
  offOrigin: string[]
  /** Script errors and console errors: must stay empty. */
  consoleErrors: string[]
  signIn(key?: string): Promise<void>
  /** Opens a session's tab through the UI (its link in the list, then the tab's link). */
  openSession(sessionId: string, tab?: string): Promise<void>
  /** With PANEL_SCREENSHOT_DIR set: panel-<name>-light.png and panel-<name>-dark.png of the page as it is. */
  shot(name: string): Promise<void>
  /** Picks a theme with the header's toggle (as a user does) and checks the page took it. */
  chooseTheme(theme: 'light' | 'dark'): Promise<void>
  close(): Promise<void>
}

type GatewayOptions = Parameters<typeof startSimulatedGateway>[0]

export async function startPanelRig(
  options: { gateway?: GatewayOptions; viewport?: { width: number; height: number } } = {},
): Promise<PanelRig> {
  // Served before the gateway exists so that PUBLIC_URL can name this server.
  let t: SimulatedGateway | undefined
  const server: RunningServer = await serve({
    fetch: (request) => (t as SimulatedGateway).gateway.app.fetch(request),
    port: 0,
    hostname: '127.0.0.1',
  })
  const baseUrl = `http://127.0.0.1:${server.port}`
  t = await startSimulatedGateway({ plan: 'paid', ...options.gateway })
  const gateway = t
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 900 } })
  const offOrigin: string[] = []
  const consoleErrors: string[] = []
  page.on('request', (request) => {
    // blob: URLs of this origin are the page's own files in memory (the inbox's received media).
    const url = request.url()
    if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith(`blob:${baseUrl}/`)) offOrigin.push(url)
  })
  page.on('console', (message) => {
    // A refused request's status is the browser's own resource line, not a script error.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  page.on('dialog', (dialog) => void dialog.accept())

  return {
    t: gateway,
    baseUrl,
    browser,
    page,
    offOrigin,
    consoleErrors,
    async signIn(key = gateway.key) {
      await page.goto(`${baseUrl}/panel`)
      await page.locator('#api-key').fill(key)
      await page.locator('#api-key').press('Enter')
      await page.locator('#sessions').waitFor()
    },
    async openSession(sessionId, tab = 'overview') {
      await page.locator(`#sessions li[data-id="${sessionId}"] a`).click()
      await page.locator(`#tab-${tab}`).click()
      await page.locator(`#tab-${tab}[aria-current="page"]`).waitFor()
    },
    shot: (name) => screenshotInBothThemes(page, name),
    async chooseTheme(theme) {
      // Before any choice the root has no data-theme (the system's applies): a toggle may be needed twice.
      for (let i = 0; i < 2; i++) {
        if ((await page.locator('html').getAttribute('data-theme')) === theme) return
        await page.locator('#theme-toggle').click()
      }
      if ((await page.locator('html').getAttribute('data-theme')) !== theme)
        throw new Error(`the page did not take the ${theme} theme`)
    },
    async close() {
      await browser.close()
      gateway.gateway.endStreams()
      await server.close()
      await gateway.close()
    },
  }
}

/** How far the page is wider than the window (0: no horizontal scrolling). */
export const horizontalOverflow = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement
    return root.scrollWidth - root.clientWidth
  })

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's serious and critical findings on the page as it is (WCAG 2 A/AA rules). Evaluated
 * through the DevTools protocol, which the page's CSP does not govern: the page itself stays strict.
 */
export async function accessibilityViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    // axe is the global the evaluated source defines.
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }))
  })
  return violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
}

/**
 * With PANEL_SCREENSHOT_DIR set: docs-ready screenshots panel-<name>-light.png and -dark.png of the
 * page as it is. The theme is only the root's data-theme (the style sheet does the rest), so both
 * show the same moment; the choice the page had is put back.
 */
export async function screenshotInBothThemes(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return
  mkdirSync(SCREENSHOTS, { recursive: true })
  const setTheme = (theme: string | null) =>
    page.evaluate((value) => {
      const root = (globalThis as any).document.documentElement
      if (value) root.dataset.theme = value
      else delete root.dataset.theme
    }, theme)
  const chosen = await page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme ?? null)
  for (const theme of ['light', 'dark']) {
    await setTheme(theme)
    await page.screenshot({ path: join(SCREENSHOTS, `panel-${name}-${theme}.png`), fullPage: true })
  }
  await setTheme(chosen)
}
