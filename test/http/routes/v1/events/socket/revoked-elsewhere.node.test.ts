import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../../../../src/runtime/serve'
import { isRefused, openSocket, type OpenSocket } from '../../../../../support/event-socket'
import { writeFileElsewhere } from '../../../../../support/sqlite-file'
import { startTestGateway, type TestGateway } from '../../../../../support/gateway'

const ADMIN_KEY = 'admin-key-0123456789-0123456789-abcdef'

/** Node only: the other process writes the file with better-sqlite3, which Bun does not load. */
describe('an event socket whose key another process revoked', () => {
  let t: TestGateway
  let server: RunningServer
  beforeAll(async () => {
    t = await startTestGateway({ config: { adminApiKey: ADMIN_KEY } })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
  })
  afterAll(async () => {
    t.gateway.endStreams()
    await server.close()
    await t.close()
  })

  const closesWithin = (socket: OpenSocket, ms: number) =>
    Promise.race([socket.closed, new Promise<undefined>((resolve) => setTimeout(resolve, ms, undefined))])
  const socket = async (credential: string) => {
    const opened = await openSocket(`ws://127.0.0.1:${server.port}/v1/events/ws`, {
      protocols: ['wag.events.v1', `wag.bearer.${credential}`],
    })
    if (isRefused(opened)) throw new Error(`refused: ${opened.status}`)
    await opened.until((frames) => frames.some((f) => f.json.type === 'ready'))
    return opened
  }
  const issueKey = async () =>
    (await (
      await t.gateway.app.request('/v1/admin/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workspace: 'test' }),
      })
    ).json()) as any

  it('closes the socket of a key another process revoked in the shared database', async () => {
    const { keyId, key } = await issueKey()
    const revoked = await socket(key)
    await writeFileElsewhere(t.databasePath, 'UPDATE api_keys SET revoked_at = ? WHERE id = ?', Date.now(), keyId)
    expect(await closesWithin(revoked, 2_000)).toEqual({ code: 4401, reason: 'credential revoked' })
  })
})
