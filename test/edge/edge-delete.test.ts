/**
 * #33's session routes on the Cloudflare Workers deployment under local `wrangler dev`: a session
 * connected without a webhook, its name used where its id goes (the Worker answers the id), and
 * DELETE /v1/session/{id} (refused while live; once disconnected the session object's rows go and
 * the workspace object's index lets the name be taken again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEdgeRig, type EdgeRig } from './edge-rig'

const CONTACT = '15551230002'
const PHONE = '15550170002'

let rig: EdgeRig

beforeAll(async () => {
  rig = await startEdgeRig([CONTACT])
}, 180_000)

afterAll(() => rig?.close(), 60_000)

describe('edge: a finished session deleted, and a name used as its id', () => {
  it('connects without a webhook, answers the id for its name, refuses DELETE while live, deletes once disconnected', async () => {
    const connect = await rig.api('POST', '/v1/session/connect', { sessionName: 'edge desk' })
    expect(connect.status, `${JSON.stringify(connect.body)}\n${rig.dev.output().slice(-3000)}`).toBe(200)
    expect(connect.body.webhookUrl).toBeNull()
    const sessionId = connect.body.sessionId
    rig.sim.scan(connect.body.qrCode, PHONE)
    await rig.waitForStatus(sessionId, 'connected')

    const byName = await rig.api('GET', `/v1/session/${encodeURIComponent('edge desk')}/qr`)
    expect(byName.status).toBe(404)
    expect(byName.body.message).toContain(sessionId)

    const live = await rig.api('DELETE', `/v1/session/${sessionId}`)
    expect(live.status, JSON.stringify(live.body)).toBe(409)

    const off = await rig.api('DELETE', `/v1/session/disconnect/${sessionId}`)
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    await rig.waitForStatus(sessionId, 'disconnected')

    const deleted = await rig.api('DELETE', `/v1/session/${sessionId}`)
    expect(deleted.status, `${JSON.stringify(deleted.body)}\n${rig.dev.output().slice(-3000)}`).toBe(200)
    expect(deleted.body.sessionId).toBe(sessionId)
    expect((await rig.api('GET', '/v1/session/all')).body.sessions).toEqual([])
    expect((await rig.api('DELETE', `/v1/session/${sessionId}`)).status).toBe(404)
    // The name is free again: a new session may take it.
    const again = await rig.api('POST', '/v1/session/connect', { sessionName: 'edge desk' })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.sessionId).not.toBe(sessionId)
  }, 120_000)
})
