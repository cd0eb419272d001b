import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const ACCOUNT = '15550380001'

/**
 * The inbox of a session that imported its phone's history, in a real browser: the phone's
 * chats are there on day one, with their names, pins, archive and unread counts, and a message
 * from the history says where it came from.
 */
describe('the panel’s inbox after a history import', () => {
  let rig: PanelRig
  let seeded: Awaited<ReturnType<PanelRig['t']['sim']['seedHistory']>>

  beforeAll(async () => {
    rig = await startPanelRig({})
    seeded = await rig.t.sim.seedHistory(ACCOUNT, { chats: 3, messagesPerChat: 8, days: 5 })
    const linked = await rig.t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'imported', history: { days: 30 } },
    })
    await rig.t.sim.account(ACCOUNT).waitForHistoryAcknowledged()
    await pollUntil(
      async () => (await rig.t.get(`/v1/chat/all?sessionId=${linked.sessionId}`)).body.chats.length,
      (listed) => listed === seeded.chats.length,
      { timeoutMs: 20_000, what: 'the imported chats' },
    )
    await rig.signIn()
    await rig.openSession(linked.sessionId, 'inbox')
  }, 60_000)
  afterAll(() => rig?.close())

  const chatRow = (chat: string) => rig.page.locator(`#chats li[data-chat="${chat}"]`)

  it('lists the phone’s chats with their names, pins, archive and unread counts, and marks history messages', async () => {
    for (const chat of seeded.chats) {
      await chatRow(chat.phone).waitFor()
      expect([chat.name, chat.pushName]).toContain(await chatRow(chat.phone).locator('.chat-name').textContent())
      expect(await chatRow(chat.phone).locator('.status.pinned').count()).toBe(chat.pinned ? 1 : 0)
      expect(await chatRow(chat.phone).locator('.status.archived').count()).toBe(chat.archived ? 1 : 0)
      expect(await chatRow(chat.phone).locator('.status.muted-chat').count()).toBe(chat.muted ? 1 : 0)
      if (chat.unread > 0)
        expect(await chatRow(chat.phone).locator('.unread').getAttribute('data-count')).toBe(String(chat.unread))
    }
    const quiet = seeded.chats.find((chat) => chat.unread === 0)!
    await chatRow(quiet.phone).locator('a').click()
    await rig.page.locator(`#conversation[data-chat="${quiet.phone}"]`).waitFor()
    const tags = rig.page.locator('#conversation-messages li .history-tag')
    await expect.poll(() => tags.count()).toBe(quiet.messages)
    expect(await tags.first().textContent()).toContain('history')
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
      expect(await accessibilityViolations(rig.page)).toEqual([])
      expect(await horizontalOverflow(rig.page)).toBe(0)
    }
  })
})
