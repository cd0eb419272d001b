import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const ACCOUNT = '15550009401'
const ANNA = '15551230401'
const BORIS = '15551230402'

/**
 * The Groups tab in Chromium against the gateway and the simulator as WhatsApp: the groups the
 * account is in (one appearing live when a member adds the account), a group's info and
 * participants with their admin marks, and the invite link shown, copied and reset.
 */
describe('the panel’s Groups tab', () => {
  let rig: PanelRig
  let sessionId: string
  let club: string

  const rows = () => rig.page.locator('#group-list tr')
  const invite = async (groupId: string) =>
    (await rig.t.get(`/v1/group/${groupId}/invite?sessionId=${sessionId}`)).body.inviteLink as string

  beforeAll(async () => {
    rig = await startPanelRig()
    for (const phone of [ANNA, BORIS]) rig.t.sim.addContact(phone)
    sessionId = (await rig.t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'club desk' } })).sessionId
    const created = await rig.t.post('/v1/group/create', {
      sessionId,
      subject: 'Bike club',
      participants: [ANNA, BORIS],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    club = created.body.group.groupId
    const promoted = await rig.t.post(`/v1/group/${club}/participants`, {
      sessionId,
      action: 'promote',
      phones: [ANNA],
    })
    expect(promoted.body.results).toMatchObject([{ status: 'promoted' }])
    rig.page.setDefaultTimeout(10_000) // a missing element fails its test, not the file's time
    await rig.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.baseUrl })
    await rig.signIn()
    await rig.openSession(sessionId, 'groups')
  }, 60_000)
  afterEach(() => {
    expect(rig.consoleErrors).toEqual([])
    expect(rig.offOrigin).toEqual([])
  })
  afterAll(() => rig?.close())

  it('lists the groups, and one a member adds the account to appears without a reload', async () => {
    await rows().first().waitFor()
    expect(await rows().count()).toBe(1)
    const row = rig.page.locator(`#group-list tr[data-id="${club}"]`)
    expect(await row.locator('td').allInnerTexts()).toEqual(['Bike club', '3', 'admin', 'open to all'])

    // Anna's own group, made without the account; then she adds it (a w:gp2 notification, a group.joined event)
    const neighbours = rig.t.sim.createGroup('Neighbours', [ANNA, BORIS], ANNA).jid
    rig.t.sim.group(neighbours).by(ANNA).participants('add', [ACCOUNT])
    const added = rig.page.locator(`#group-list tr[data-id="${neighbours}"]`)
    await added.waitFor()
    expect(await added.locator('td').allInnerTexts()).toEqual(['Neighbours', '3', 'member', 'open to all'])
    // Ordered by subject, as the API answers
    expect(await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([club, neighbours])
  })

  it('shows a group’s info and its participants with their admin marks', async () => {
    await rig.page.locator(`#group-list tr[data-id="${club}"] a`).click()
    await rig.page.locator('#group-subject').waitFor()
    expect(new URL(rig.page.url()).hash).toBe(`#/session/${sessionId}/groups/${encodeURIComponent(club)}`)
    expect(await rig.page.locator('#group-subject').innerText()).toBe('Bike club')
    // Focus lands on the group opened (keyboard and screen reader users)
    expect(await rig.page.locator(':focus').getAttribute('id')).toBe('group-subject')
    expect(await rig.page.locator('#group-owner').innerText()).toBe(`+${ACCOUNT}`)
    expect(await rig.page.locator('#group-my-role').innerText()).toBe('super admin')
    expect(await rig.page.locator('#group-announce').innerText()).toBe('everyone sends')

    const participants = await Promise.all(
      (await rig.page.locator('#group-participants tr').all()).map(async (row) => [
        await row.getAttribute('data-phone'),
        await row.getAttribute('data-admin'),
        (await row.innerText()).replace(/\s+/g, ' ').trim(),
      ]),
    )
    expect(participants).toEqual([
      [ACCOUNT, 'superadmin', `+${ACCOUNT} (you) super admin`],
      [ANNA, 'admin', `+${ANNA} admin`],
      [BORIS, '', `+${BORIS}`],
    ])

    // What another admin changes reaches the open group live
    rig.t.sim.group(club).by(ANNA).participants('promote', [BORIS])
    rig.t.sim.group(club).by(ANNA).setSubject('Bike club (Sundays)')
    await rig.page.locator('#group-subject', { hasText: 'Bike club (Sundays)' }).waitFor()
    await rig.page.locator(`#group-participants tr[data-phone="${BORIS}"][data-admin="admin"]`).waitFor()
  })

  it('shows the invite link, copies it, and resets it after a confirmation', async () => {
    const link = rig.page.locator('#group-invite-link')
    const before = await invite(club)
    await rig.page.locator('#group-invite-link', { hasText: before }).waitFor()
    expect(before).toMatch(/^https:\/\/chat\.whatsapp\.com\/\w+/)

    await rig.page.locator('#group-invite-copy').click()
    await rig.page.locator('#group-invite-copy', { hasText: 'Copied.' }).waitFor()
    expect(await rig.page.evaluate('navigator.clipboard.readText()')).toBe(before)

    const dialogs: string[] = []
    rig.page.once('dialog', (dialog) => void dialogs.push(dialog.message()))
    await rig.page.locator('#group-invite-revoke').click()
    await rig.page.locator('#group-invite-status', { hasText: 'reset' }).waitFor()
    expect(dialogs).toEqual(['Reset the invite link of "Bike club (Sundays)"? The current link stops working.'])
    const after = await link.innerText()
    expect(after).not.toBe(before)
    expect(after).toBe(await invite(club))
    // WhatsApp's own group now has the new code: the old link no longer opens it
    expect(`https://chat.whatsapp.com/${rig.t.sim.group(club).info().inviteCode}`).toBe(after)
  })

  it('tells a member who is no admin that the invite link is for admins', async () => {
    const neighbours = (await rig.t.get(`/v1/group/all?sessionId=${sessionId}`)).body.groups.find(
      (g: { subject: string }) => g.subject === 'Neighbours',
    ).groupId
    await rig.page.locator(`#group-list tr[data-id="${neighbours}"] a`).click()
    await rig.page.locator('#group-subject', { hasText: 'Neighbours' }).waitFor()
    await rig.page.locator('#group-invite-admins-only').waitFor()
    expect(await rig.page.locator('#group-invite-link').count()).toBe(0)
    expect(await rig.page.locator('#group-my-role').innerText()).toBe('member')
  })

  it('fits 1280 and 390 px and has no serious accessibility finding, in both themes', async () => {
    const { page } = rig
    await page.locator(`#group-list tr[data-id="${club}"] a`).click()
    await page.locator('#group-subject', { hasText: 'Bike club' }).waitFor()
    await page.locator('#group-invite-copy').waitFor()
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        expect(await horizontalOverflow(page)).toBe(0)
        expect(await accessibilityViolations(page)).toEqual([])
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await rig.shot('groups')
  })
})
