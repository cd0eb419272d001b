import { parseResponse } from 'hono/client'
import { join } from 'node:path'
import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { WaVersion } from '../../../src/config'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { tempDir } from '../../support/temp-dir'
import { setTimeout as sleep } from 'node:timers/promises'

const BUNDLED = [...DEFAULT_CONNECTION_CONFIG.version] as WaVersion
const NEWER: WaVersion = [BUNDLED[0], BUNDLED[1], BUNDLED[2] + 1]

/** The session.status events of a session, in order: [status, statusReason]. */
const statusEvents = (databasePath: string, sessionId: string) =>
  queryFile<{ body: string }>(
    databasePath,
    `SELECT body FROM webhook_events WHERE type = 'session.status' AND session_id = '${sessionId}' ORDER BY rowid`,
  ).map((row) => {
    const { data } = JSON.parse(row.body) as { data: { status: string; statusReason: string | null } }
    return [data.status, data.statusReason]
  })

describe('the WhatsApp Web version a session announces', () => {
  describe('when WhatsApp moves on (the simulator raises its minimum)', () => {
    let t: SimulatedGateway
    let webVersion: WaVersion = BUNDLED
    const asked: number[] = []
    beforeAll(async () => {
      t = await startSimulatedGateway({
        simulator: { contacts: ['15551230001'] },
        fetchWaVersion: async () => {
          asked.push(Date.now())
          return webVersion
        },
      })
    })
    afterAll(() => t.close())

    it('is learnt as Baileys loads, then again after a 405, and the refreshed version connects', async () => {
      const id = await t.pairByQr('moves-on', '15550021001')
      expect(asked).toHaveLength(1)
      expect(await parseResponse(t.api.health.$get())).toMatchObject({
        whatsappWebVersion: { version: BUNDLED.join('.'), source: 'fetched' },
      })

      t.sim.setMinimumVersion(NEWER)
      webVersion = NEWER // what web.whatsapp.com now answers
      t.sim.account('15550021001').fault('drop')
      await vi.waitFor(() =>
        expect(statusEvents(t.databasePath, id)).toContainEqual(['connecting', 'outdated_version']),
      )
      const session = await t.waitForStatus(id, 'connected')
      expect(session.statusReason).toBeNull()
      expect(t.sim.outdatedRefusals()).toEqual([{ version: BUNDLED.join('.'), username: '15550021001' }])
      expect(asked).toHaveLength(2)
      expect(await parseResponse(t.api.health.$get())).toMatchObject({
        whatsappWebVersion: { version: NEWER.join('.'), source: 'fetched' },
      })
      expect(statusEvents(t.databasePath, id).slice(-3)).toEqual([
        ['connecting', 'connection_closed'],
        ['connecting', 'outdated_version'],
        ['connected', null],
      ])
      // Sends work on the new version.
      const sent = await t.post('/v1/message/text', { sessionId: id, phone: '15551230001', message: 'still here' })
      expect(sent.status).toBe(200)
      expect(t.sim.violations()).toEqual([])
    })
  })

  describe('pinned with WA_VERSION to one WhatsApp no longer accepts', () => {
    const dir = tempDir()
    const databasePath = join(dir.path, 'gateway.db')
    let first: SimulatedGateway
    let pinned: SimulatedGateway
    let id: string
    let asked = 0
    beforeAll(async () => {
      first = await startSimulatedGateway({ databasePath })
      id = await first.pairByQr('pinned', '15550021002')
      await first.stopGateway()
      pinned = await startSimulatedGateway({
        databasePath,
        reuse: { sim: first.sim, control: first.control },
        config: { waVersion: [2, 3000, 1], reconnect: { baseMs: 100, maxMs: 400 } },
        fetchWaVersion: async () => {
          asked++
          return NEWER
        },
      })
    }, 60_000) // two gateway starts and a pairing: over the 30 s default on a loaded machine
    afterAll(async () => {
      await pinned?.stopGateway()
      await first?.close()
      dir.cleanup()
    })

    it('says so in statusReason and its event, keeps trying at the capped backoff, and fetches nothing', async () => {
      const session = await pinned.waitForStatus(id, 'connecting')
      await vi.waitFor(() =>
        expect(pinned.listSessions().then((all) => all.find((s) => s.sessionId === id))).resolves.toMatchObject({
          status: 'connecting',
          statusReason: 'outdated_version',
        }),
      )
      expect(session.number).toBe('15550021002')
      expect(statusEvents(databasePath, id).at(-1)).toEqual(['connecting', 'outdated_version'])
      expect(await parseResponse(pinned.api.health.$get())).toMatchObject({
        whatsappWebVersion: { version: '2.3000.1', source: 'pinned' },
      })
      const before = first.sim.outdatedRefusals().length
      await sleep(1_500)
      const during = first.sim.outdatedRefusals().length - before
      // Backoff between 200 and 400 ms once capped: a handful of tries, never a tight loop.
      expect(during).toBeGreaterThanOrEqual(2)
      expect(during).toBeLessThanOrEqual(10)
      expect(first.sim.outdatedRefusals().at(-1)).toEqual({ version: '2.3000.1', username: '15550021002' })
      expect(asked).toBe(0)
      // One event for the reason, not one per attempt.
      expect(statusEvents(databasePath, id).filter(([, reason]) => reason === 'outdated_version')).toHaveLength(1)
    })

    it('refuses a new pairing as outdated: connect answers the reason and the session is expired', async () => {
      const before = first.sim.outdatedRefusals().length
      const response = await pinned.connect({ sessionName: 'new-on-old' })
      expect(response.status).toBeGreaterThanOrEqual(500)
      const session = (await pinned.listSessions()).find((s) => s.sessionName === 'new-on-old')
      expect(session).toMatchObject({ status: 'expired', statusReason: 'outdated_version' })
      // A pairing has no username yet; the other session's retries go on beside it.
      expect(first.sim.outdatedRefusals().slice(before)).toContainEqual({ version: '2.3000.1' })
    })
  })
})
