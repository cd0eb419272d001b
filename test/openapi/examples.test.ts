import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE_INVITE_CODE, EXAMPLE_MESSAGE_ID, EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from '../../src/schemas/examples'
import { fixtures, generate, testPicture } from '../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'

const ACCOUNT = '15550019001'
const methods = ['post', 'put'] as const

/**
 * Every request body in /openapi.json carries an example (Swagger UI fills "Try it out" with it),
 * and each succeeds as given against a connected session once sessionId and messageId name the
 * caller's own. The test changes only those, the webhook URL (to one that is never contacted)
 * and the media URLs (to a loopback server holding the same kind of file): nothing else.
 */
describe('the request examples of /openapi.json', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let document: any
  const examples = new Map<string, { method: string; example: Record<string, unknown> }>()

  beforeAll(async () => {
    files = await startMediaServer()
    files.serve('photo.jpg', await generate([...testPicture('320x240', 1), '-frames:v', '1'], 'jpg'), 'image/jpeg')
    files.serve('note.mp3', await fixtures.mp3(2), 'audio/mpeg')
    files.serve('sticker.webp', await fixtures.staticWebp(), 'image/webp')
    files.serve('clip.mp4', await fixtures.mp4(1), 'video/mp4')
    files.serve('report.pdf', new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), 'application/pdf')
    t = await startSimulatedGateway({ plan: 'paid', config: { allowPrivateAddresses: true } })
    t.sim.addContact(EXAMPLE_PHONE)
    t.sim.addContact('15551230002')
    document = await (await t.request('/openapi.json')).json()
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const method of methods) {
        const body = item[method]?.requestBody
        if (!body) continue
        const content = body.$ref ? document.components.requestBodies[body.$ref.split('/').pop()].content : body.content
        const media = content['application/json']
        examples.set(path, { method, example: media.schema.example ?? media.example })
      }
    }
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  let sessionId = ''

  /** The example with the caller's own ids and the test's loopback URLs; nothing else changed. */
  const localised = (path: string, ids: { sessionId?: string; messageId?: string; inviteCode?: string }) => {
    const text = JSON.stringify(examples.get(path)!.example)
      .replaceAll(EXAMPLE_SESSION_ID, ids.sessionId ?? EXAMPLE_SESSION_ID)
      .replaceAll(EXAMPLE_MESSAGE_ID, ids.messageId ?? EXAMPLE_MESSAGE_ID)
      .replaceAll(EXAMPLE_INVITE_CODE, ids.inviteCode ?? EXAMPLE_INVITE_CODE)
      .replaceAll(/https:\/\/example\.com\/([\w.]+)/g, (_, name: string) => files.url(name))
      .replaceAll('https://hooks.example.com/wa', 'https://hooks.invalid/wa')
    return JSON.parse(text) as Record<string, unknown>
  }

  it('has one on every request body', () => {
    expect(examples.size).toBeGreaterThan(10)
    for (const [path, { example }] of examples) expect(example, path).toBeTypeOf('object')
  })

  it('succeed as given: connect, update, every send, edit, reaction, forward, delete, contact check, replay, chat read and presence', async () => {
    const connect = await t.post('/v1/session/connect', localised('/v1/session/connect', {}))
    expect(connect.status).toBe(200)
    sessionId = connect.body.sessionId as string
    t.sim.scan(connect.body.qrCode, ACCOUNT)
    await t.waitForStatus(sessionId, 'connected')

    const update = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(localised('/v1/session/update/{id}', {})),
    })
    expect(update.status).toBe(200)

    // Edit, reaction, forward and delete name a message: they follow, on the text sent here (delete last).
    const onMessage = [
      '/v1/message/edit',
      '/v1/message/reaction',
      '/v1/message/{messageId}/forward',
      '/v1/message/delete',
    ]
    const sends = [...examples.keys()].filter((path) => path.startsWith('/v1/message/') && !onMessage.includes(path))
    expect(sends.length).toBeGreaterThanOrEqual(7)
    let textId = ''
    for (const path of sends) {
      const sent = await t.post(path, localised(path, { sessionId }))
      expect({ path, status: sent.status, body: sent.body }).toMatchObject({ path, status: 200 })
      if (path === '/v1/message/text') textId = sent.body.messageId
    }
    await t.waitForRecord(sessionId, textId, (record) => record.status !== 'pending')

    for (const path of [
      ...onMessage,
      '/v1/contact/check',
      '/v1/webhooks/replay',
      '/v1/chat/read',
      '/v1/chat/presence',
    ]) {
      const answer = await t.post(
        path.replace('{messageId}', textId),
        localised(path, { sessionId, messageId: textId }),
      )
      expect({ path, status: answer.status, body: answer.body }).toMatchObject({ path, status: 200 })
    }
    expect(t.sim.violations()).toEqual([])
  }, 60_000)

  it('succeed as given: the groups (create, update, participants, invite reset, join, leave)', async () => {
    const send = (method: string, path: string, route: string, ids: { inviteCode?: string } = {}) =>
      t
        .request(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(localised(route, { sessionId, ...ids })),
        })
        .then(async (r) => ({ path: route, status: r.status, body: (await r.json()) as any }))
    const created = await send('POST', '/v1/group/create', '/v1/group/create')
    expect(created).toMatchObject({ status: 200, body: { participants: [{ status: 'added' }] } })
    const group = created.body.group.groupId as string
    expect(await send('PUT', `/v1/group/${group}`, '/v1/group/{groupId}')).toMatchObject({ status: 200 })
    expect(await send('POST', `/v1/group/${group}/participants`, '/v1/group/{groupId}/participants')).toMatchObject({
      status: 200,
      body: { results: [{ status: 'added' }] },
    })
    const reset = await send('POST', `/v1/group/${group}/invite/revoke`, '/v1/group/{groupId}/invite/revoke')
    expect(reset).toMatchObject({ status: 200 })
    const joined = await send('POST', '/v1/group/join', '/v1/group/join', { inviteCode: reset.body.inviteCode })
    expect(joined).toMatchObject({ status: 200, body: { groupId: group } })
    expect(await send('POST', `/v1/group/${group}/leave`, '/v1/group/{groupId}/leave')).toMatchObject({ status: 200 })
    expect(t.sim.violations()).toEqual([])
  }, 60_000)

  it('succeed as given: block, unblock and the session’s own profile', async () => {
    await t.sim.account(ACCOUNT).waitForAppStateKey()
    for (const action of ['block', 'unblock']) {
      const route = `/v1/contact/{phone}/${action}`
      const answer = await t.post(`/v1/contact/${EXAMPLE_PHONE}/${action}`, localised(route, { sessionId }))
      expect({ route, status: answer.status, body: answer.body }).toMatchObject({ route, status: 200 })
    }
    const route = '/v1/session/{id}/profile'
    const profile = await t.request(`/v1/session/${sessionId}/profile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(localised(route, {})),
    })
    expect({ route, status: profile.status, body: await profile.json() }).toMatchObject({ route, status: 200 })
    expect(t.sim.profile(ACCOUNT)).toMatchObject({ name: 'Sales team', about: 'Replies within the hour' })
    expect(t.sim.violations()).toEqual([])
  }, 60_000)
})
