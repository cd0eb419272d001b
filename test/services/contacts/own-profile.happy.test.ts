import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generate, testPicture } from '../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550043001'
const FRIEND = '15550043002'

/**
 * PUT /v1/session/{id}/profile end to end: the account's about and photo go to the simulator as
 * Baileys' iqs, its name as an app-state patch the simulated phone verifies; a second session
 * (another account, a contact of the first) then sees them through its own profile query and the
 * first account's messages. Photos come from a loopback media server (ALLOW_PRIVATE_ADDRESSES)
 * or a data: URL.
 */
describe('the session’s own profile', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string
  let friendId: string
  let wide: Uint8Array
  let square: Uint8Array

  const update = (body: unknown, id = sessionId) =>
    t
      .request(`/v1/session/${id}/profile`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      .then(async (response) => ({ status: response.status, body: (await response.json()) as any }))
  const seenByFriend = () => t.get(`/v1/contact/${ACCOUNT}/profile?sessionId=${friendId}`)
  const download = (url: string) =>
    new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
      request(url, { ca: t.sim.config.mediaCaPem }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks) }))
      })
        .on('error', reject)
        .end()
    })

  beforeAll(async () => {
    files = await startMediaServer()
    wide = await generate([...testPicture('1280x720', 1), '-frames:v', '1'], 'jpg')
    square = await generate([...testPicture('400x400', 1), '-frames:v', '1'], 'jpg')
    files.serve('wide.jpg', wide, 'image/jpeg')
    t = await startSimulatedGateway({ config: { allowPrivateAddresses: true, queryTimeoutMs: 1_000 } })
    sessionId = await t.pairByQr('main', ACCOUNT)
    friendId = await t.pairByQr('friend', FRIEND)
    await t.sim.account(ACCOUNT).waitForAppStateKey()
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  it('changes name, about and photo (fetched, made 640×640); a contact sees all three', async () => {
    const { status, body } = await update({ name: 'Sales desk', about: 'Back at 5', pictureUrl: files.url('wide.jpg') })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({
      sessionId,
      name: 'Sales desk',
      about: 'Back at 5',
      picture: { removed: false, side: 640, converted: true },
    })
    const profile = t.sim.profile(ACCOUNT)
    expect(profile).toMatchObject({ name: 'Sales desk', about: 'Back at 5', picture: { side: 640 } })

    // The friend's session asks WhatsApp about the account: the about and the photo it set
    const seen = await seenByFriend()
    expect(seen.body).toMatchObject({ phone: ACCOUNT, about: 'Back at 5', pictureUrl: profile.picture!.url })
    const photo = await download(seen.body.pictureUrl)
    expect(photo.bytes.equals(profile.picture!.bytes)).toBe(true)
    // The name rides on the account's messages: the friend's session learns it from one
    const sent = await t.post('/v1/message/text', { sessionId, phone: FRIEND, message: 'hello' })
    expect(sent.status).toBe(200)
    await t.waitForRecord(friendId, sent.body.messageId, (record) => record?.status === 'received')
    expect((await seenByFriend()).body.name).toBe('Sales desk')
    // The device now knows its name: WhatsApp takes the account's presence (it needs the name)
    const presence = await t.post('/v1/chat/presence', { sessionId, state: 'available' })
    expect(presence.status, JSON.stringify(presence.body)).toBe(200)
    await t.sim.account(ACCOUNT).waitForPresence((p) => p.kind === 'presence' && p.name === 'Sales desk')
    expect(t.sim.violations()).toEqual([])
  })

  it('sends a square JPEG of 192–640 px from a data: URL byte for byte, and removes the photo with null', async () => {
    const dataUrl = `data:image/jpeg;base64,${Buffer.from(square).toString('base64')}`
    const set = await update({ pictureUrl: dataUrl })
    expect(set).toEqual({ status: 200, body: { sessionId, picture: { removed: false, side: 400, converted: false } } })
    expect(t.sim.profile(ACCOUNT).picture!.bytes.equals(Buffer.from(square))).toBe(true)
    const old = t.sim.profile(ACCOUNT).picture!.url

    const removed = await update({ pictureUrl: null })
    expect(removed).toEqual({
      status: 200,
      body: { sessionId, picture: { removed: true, side: null, converted: false } },
    })
    expect(t.sim.profile(ACCOUNT).picture).toBeUndefined()
    expect((await seenByFriend()).body.pictureUrl).toBeNull()
    expect((await download(old)).status).toBe(404)
  })

  it('changes the name again, and setting the same about twice is harmless', async () => {
    expect((await update({ name: 'Sales' })).body).toEqual({ sessionId, name: 'Sales' })
    expect(t.sim.profile(ACCOUNT).name).toBe('Sales')
    for (let i = 0; i < 2; i++) expect((await update({ about: 'Same' })).status).toBe(200)
    expect(t.sim.profile(ACCOUNT).about).toBe('Same')
    expect(t.sim.violations()).toEqual([])
  })

  it.each([
    ['an about', { about: 'Never confirmed' }],
    ['a name (an app-state patch whose queries rc14 never times out)', { name: 'Never confirmed' }],
  ])('answers 504 when WhatsApp does not confirm %s in time', async (_what, body) => {
    const account = t.sim.account(ACCOUNT)
    account.fault('unresponsive')
    const started = Date.now()
    try {
      const answer = await update(body)
      expect(answer.status, JSON.stringify(answer.body)).toBe(504)
      expect(answer.body).toMatchObject({
        error: 'upstream_timeout',
        message: expect.stringMatching(/may still apply/),
      })
      expect(answer.body.details.applied).toBeUndefined()
      expect(Date.now() - started).toBeLessThan(10_000) // given up at twice the 1 s query timeout, not left hanging
    } finally {
      account.clearFaults()
    }
    await t.waitForStatus(sessionId, 'connected')
  })
})
