import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readElfHeader } from '../support/elf'
import { queryFile } from '../support/sqlite-file'
import { type BinaryRig, checkCliCommands, checkSends, checkStops, startBinaryRig } from './support/binary-rig'

const ACCOUNT = '15550010001'
const CONTACT = '15551230001'

/**
 * `npm run build:binary` → dist/wa-gateway (linux-x64), run alone from an empty directory with a
 * bare environment (./support/binary-rig.ts): migrations, the docs assets and ffmpeg come from
 * inside the executable.
 */
describe('the single binary', () => {
  let rig: BinaryRig
  beforeAll(async () => {
    rig = await startBinaryRig(
      { target: 'linux-x64', file: 'wa-gateway', launch: (binary, args) => ({ command: binary, args }), slowness: 1 },
      CONTACT,
    )
  }, 300_000)
  afterAll(() => rig?.close())

  it('is an ELF executable for x86-64', () => {
    expect(readElfHeader(rig.binary)).toEqual({ class: '64-bit', endian: 'LSB', machine: 'x86-64' })
  })

  it('runs the CLI commands: migrate, workspace create, key create', () => checkCliCommands(rig))

  it('serves the docs, pairs against the simulator, sends a text, a voice note and a sticker, keeps a business label, posts a status, lists its channels, and backs up while serving', async () => {
    const started = performance.now()
    const running = await rig.serve()
    console.log(`binary: listening ${Math.round(performance.now() - started)} ms after spawn`)
    const { base, api, server } = running
    expect(await (await fetch(`${base}/docs`)).text()).toContain('swagger-ui-bundle.js')
    expect(await (await fetch(`${base}/openapi.json`)).json()).toMatchObject({ openapi: '3.1.0' })
    const css = await fetch(`${base}/docs/assets/swagger-ui.css`)
    expect(css.status).toBe(200)
    expect((await css.text()).length).toBeGreaterThan(10_000)
    expect((await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200)
    // The panel's bundle, built into the binary: the same bytes the source builds to.
    const { panelScript, panelVersion } = await import('../../src/http/routes/panel/assets.generated')
    expect(await (await fetch(`${base}/panel`)).text()).toContain(`app.js?v=${panelVersion}`)
    expect(await (await fetch(`${base}/panel/app.js`)).text()).toBe(panelScript)

    const sessionId = await api.pairByQr(rig.sim, 'binary', ACCOUNT)
    await checkSends(rig, running, { sessionId, contact: CONTACT, machine: 'x86-64', timeoutMs: 10_000 })
    // The WAL checkpointer's worker (its code handed over as text) runs inside the binary too.
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${rig.env.METRICS_TOKEN}` } })
    const checkpointing = /^wa_sqlite_checkpoint_seconds_total (\S+)$/m.exec(await metrics.text())
    expect(Number(checkpointing?.[1])).toBeGreaterThan(0)
    // Business labels: the binary's embedded migrations hold their tables, its Baileys the app-state patch.
    rig.sim.setProfile(ACCOUNT, { business: { description: 'Binary shop' } })
    await rig.sim.account(ACCOUNT).waitForAppStateKey()
    const label = await api.post('/v1/label', { sessionId, name: 'From the binary', color: 2 })
    expect(label.status, JSON.stringify(label.body)).toBe(200)
    expect(
      rig.sim
        .account(ACCOUNT)
        .labels.list()
        .map((l) => l.name),
    ).toEqual(['From the binary'])
    expect((await api.get(`/v1/label/all?sessionId=${sessionId}`)).body.labels).toHaveLength(1)
    // A status (its audience in an embedded migration's table) and the channels (w:mex queries).
    const status = await api.post('/v1/status/text', { sessionId, text: 'From the binary', contacts: [CONTACT] })
    expect(status.status, JSON.stringify(status.body)).toBe(200)
    await rig.sim
      .contact(CONTACT)
      .waitForMessage((m) => m.id === status.body.messageId && m.chat === 'status@broadcast')
    const channel = rig.sim.createChannel({ name: 'Binary news', followers: [ACCOUNT] })
    const channels = await api.get(`/v1/channel/all?sessionId=${sessionId}`)
    expect(channels.status, JSON.stringify(channels.body)).toBe(200)
    expect(channels.body.channels.map((c: { id: string }) => c.id)).toEqual([channel.jid])

    const backup = rig.run(['backup', join(rig.dir, 'backup.db')])
    expect(backup.status, backup.stderr).toBe(0)
    const [messages] = queryFile<{ n: number }>(join(rig.dir, 'backup.db'), 'SELECT count(*) AS n FROM messages')
    expect(messages!.n).toBeGreaterThanOrEqual(2)
    await checkStops(rig, server)
  }, 120_000)
})
