import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const ADMIN_KEY = 'admin-key-for-the-panel-test-0123456789abcdef'

/** Requests as another client would make them: with this bearer, straight to the gateway. */
const as = (rig: PanelRig, bearer: string, path: string, init: RequestInit = {}) =>
  fetch(`${rig.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, ...init.headers } })

/** The Admin screen: the operator's workspaces, plans and API keys, signed in with ADMIN_API_KEY. */
describe('the panel’s Admin screen', () => {
  let rig: PanelRig

  beforeAll(async () => {
    rig = await startPanelRig({ gateway: { config: { adminApiKey: ADMIN_KEY } } })
  }, 60_000)
  afterAll(() => rig?.close())

  const signInAsOperator = async (key: string) => {
    const { page } = rig
    await page.goto(`${rig.baseUrl}/panel`)
    await page.locator('#operator-sign-in').click()
    await page.locator('#admin-key').fill(key)
    await page.locator('#admin-key').press('Enter')
  }

  it('refuses a wrong admin key and keeps nothing', async () => {
    await signInAsOperator(`${ADMIN_KEY}-not`)
    await expect.poll(() => rig.page.locator('#sign-in-error').textContent()).toBe('The admin key was refused.')
    expect(await rig.page.evaluate('sessionStorage.length')).toBe(0)
  })

  it('signs in with the admin key (kept in this tab under its own name) and shows Admin', async () => {
    const { page } = rig
    await signInAsOperator(ADMIN_KEY)
    await page.locator('#admin-workspaces tr[data-name="test"]').waitFor()
    expect(await page.locator('#who').textContent()).toBe('Admin')
    expect(page.url()).toBe(`${rig.baseUrl}/panel#/admin`)
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['wa-gateway.admin-key'])
  })

  it('creates a workspace and changes its plan', async () => {
    const { page } = rig
    await page.locator('#new-workspace-name').fill('acme')
    await page.locator('#create-workspace').click()
    const row = page.locator('#admin-workspaces tr[data-name="acme"]')
    await row.waitFor()
    await expect.poll(() => page.locator('#workspaces-status').textContent()).toBe('Workspace acme created.')
    expect(await row.locator('select.plan').inputValue()).toBe('free')

    await row.locator('select.plan').selectOption('paid')
    await row.locator('button.change-plan').click()
    await expect.poll(() => page.locator('#workspaces-status').textContent()).toBe('acme is on the paid plan now.')
    const listed = (await (await as(rig, ADMIN_KEY, '/v1/admin/workspaces')).json()) as {
      workspaces: { name: string; plan: string }[]
    }
    expect(listed.workspaces.find((w) => w.name === 'acme')?.plan).toBe('paid')
  })

  it('issues a key shown once, which works, and revokes it after a confirmation (then it is refused)', async () => {
    const { page } = rig
    await page.locator('#new-key-workspace').selectOption({ label: 'acme' })
    await page.locator('#create-key').click()
    await expect.poll(() => page.locator('#new-key').textContent()).toMatch(/^wag_/)
    const key = (await page.locator('#new-key').textContent()) as string
    expect(await page.locator('#issued-key').textContent()).toContain('shown only now')
    await page.locator('#copy-new-key').waitFor()
    await rig.shot('admin')

    const workspace = await as(rig, key, '/v1/workspace')
    expect(workspace.status).toBe(200)
    expect(await workspace.json()).toMatchObject({ name: 'acme', plan: 'paid' })

    // Shown once: after a reload the list has its prefix, the key itself is nowhere on the page.
    await page.reload()
    const row = page.locator('#admin-keys tr', { hasText: key.slice(0, 12) })
    await row.waitFor()
    expect(await page.locator('#new-key').count()).toBe(0)
    expect(await page.content()).not.toContain(key)

    await row.locator('button.revoke').click() // the dialog is accepted by the rig
    await page.locator(`#admin-keys tr[data-id="${await row.getAttribute('data-id')}"][data-revoked="true"]`).waitFor()
    expect(await page.locator('#keys-status').textContent()).toMatch(/^Key wag_.*… revoked\.$/)
    expect((await as(rig, key, '/v1/workspace')).status).toBe(401)
  })

  it('no overflow at 1280 and 390 px and no serious accessibility finding, in both themes', async () => {
    const { page } = rig
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        expect(await horizontalOverflow(page)).toBe(0)
        expect(await accessibilityViolations(page)).toEqual([])
      }
    }
  })

  it('signs out back to the sign-in screen, forgetting the admin key', async () => {
    const { page } = rig
    await page.locator('#sign-out').click()
    await page.locator('#api-key').waitFor()
    expect(await page.evaluate('sessionStorage.length')).toBe(0)
    expect(rig.consoleErrors).toEqual([])
    expect(rig.offOrigin).toEqual([])
  })
})

describe('the panel’s operator sign-in on a gateway without ADMIN_API_KEY', () => {
  let rig: PanelRig

  beforeAll(async () => {
    rig = await startPanelRig()
  }, 60_000)
  afterAll(() => rig?.close())

  it('says the admin API is off and how the operator turns it on', async () => {
    const { page } = rig
    await page.goto(`${rig.baseUrl}/panel`)
    await page.locator('#operator-sign-in').click()
    await page.locator('#admin-key').fill(ADMIN_KEY)
    await page.locator('#admin-key').press('Enter')
    await expect
      .poll(() => page.locator('#sign-in-error').textContent())
      .toMatch(/^This gateway has no admin API: ADMIN_API_KEY is not set\./)
    expect(await page.evaluate('sessionStorage.length')).toBe(0)
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      expect(await horizontalOverflow(page)).toBe(0)
      expect(await accessibilityViolations(page)).toEqual([])
    }
    expect(rig.consoleErrors).toEqual([])
  })
})
