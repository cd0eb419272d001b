import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtures, generate, testPicture } from '../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import { iqsSettled, startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550044001'
const ANNA = '15551440001'

/** A PNG whose header (IHDR) claims side×side pixels around a real 16×16 picture's data. */
async function pngClaiming(side: number): Promise<Buffer> {
  const png = Buffer.from(await generate([...testPicture('16x16', 1), '-frames:v', '1'], 'png'))
  png.writeUInt32BE(side, 16)
  png.writeUInt32BE(side, 20)
  return png
}
const dataUrl = (bytes: Uint8Array, type = 'image/png') =>
  `data:${type};base64,${Buffer.from(bytes).toString('base64')}`

/**
 * The contacts and own-profile routes against what a client may get wrong or try (another
 * workspace's session: test/http/routes/v1/cross-workspace.security.test.ts, for every session
 * route): malformed phones and bodies (400, naming the field), the session's own number,
 * an offline session (409), hostile photos (422 with nothing sent), and concurrent retries.
 * The gateway here does not allow private addresses: a loopback photo URL is refused.
 */
describe('contacts and the own profile: isolation, validation, hostile input', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string

  const call = async (method: string, path: string, body?: unknown, key = t.key, raw?: string) => {
    const response = await t.request(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined && raw === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const routes = (session: string) =>
    [
      ['GET', `/v1/contact/${ANNA}/profile?sessionId=${session}`, undefined],
      ['POST', `/v1/contact/${ANNA}/block`, { sessionId: session }],
      ['POST', `/v1/contact/${ANNA}/unblock`, { sessionId: session }],
      ['GET', `/v1/contact/blocked?sessionId=${session}`, undefined],
      ['PUT', `/v1/session/${session}/profile`, { about: 'taken over' }],
    ] as const
  const profile = (body: unknown) => call('PUT', `/v1/session/${sessionId}/profile`, body)

  beforeAll(async () => {
    files = await startMediaServer()
    files.serve('photo.jpg', await generate([...testPicture('640x640', 1), '-frames:v', '1'], 'jpg'), 'image/jpeg')
    t = await startSimulatedGateway({ config: { bodyLimitBytes: 256 * 1024 } })
    t.sim.addContact(ANNA)
    t.sim.setProfile(ANNA, { about: 'Anna here' })
    sessionId = await t.pairByQr('main', ACCOUNT)
    await t.sim.account(ACCOUNT).waitForAppStateKey()
    // The tests below count the account's iqs to show nothing was asked of WhatsApp.
    await iqsSettled(t.sim, ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  it('refuses phones that are no number or LID with 400 naming the field, asking WhatsApp nothing', async () => {
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    for (const phone of [
      'abc',
      '12345',
      '1'.repeat(16),
      '120363025246125888@g.us',
      `${'9'.repeat(30)}@lid`,
      '+1 555 <script>',
      '%00',
    ]) {
      for (const [method, path] of [
        ['GET', `/v1/contact/${encodeURIComponent(phone)}/profile?sessionId=${sessionId}`],
        ['POST', `/v1/contact/${encodeURIComponent(phone)}/block`],
      ] as const) {
        const answer = await call(method, path, method === 'POST' ? { sessionId } : undefined)
        expect({ phone, path, status: answer.status }).toEqual({ phone, path, status: 400 })
        expect(answer.body.details.fields[0].path).toBe('phone')
      }
    }
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)
  })

  it('refuses malformed bodies and queries with 400, naming each field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', `/v1/contact/${ANNA}/block`, {}, 'sessionId'],
      ['POST', `/v1/contact/${ANNA}/block`, { sessionId, extra: 1 }, '(body)'],
      ['POST', `/v1/contact/${ANNA}/unblock`, { sessionId: 42 }, 'sessionId'],
      ['GET', `/v1/contact/blocked`, undefined, 'sessionId'],
      ['GET', `/v1/contact/${ANNA}/profile?sessionId=${sessionId}&x=1`, undefined, 'query.x'],
      ['PUT', `/v1/session/${sessionId}/profile`, {}, '(body)'],
      ['PUT', `/v1/session/${sessionId}/profile`, { name: 'x'.repeat(26) }, 'name'],
      ['PUT', `/v1/session/${sessionId}/profile`, { name: '   ' }, 'name'],
      ['PUT', `/v1/session/${sessionId}/profile`, { name: 'evil\u202efdp.exe' }, 'name'],
      ['PUT', `/v1/session/${sessionId}/profile`, { about: 'x'.repeat(140) }, 'about'],
      ['PUT', `/v1/session/${sessionId}/profile`, { about: 'line\u0000break' }, 'about'],
      ['PUT', `/v1/session/${sessionId}/profile`, { pictureUrl: 'ftp://example.com/a.jpg' }, 'pictureUrl'],
      ['PUT', `/v1/session/${sessionId}/profile`, { pictureUrl: 'javascript:alert(1)' }, 'pictureUrl'],
      ['PUT', `/v1/session/${sessionId}/profile`, { sessionId, about: 'x' }, '(body)'],
    ]
    for (const [method, path, body, field] of cases) {
      const answer = await call(method, path, body)
      expect({ path, body, status: answer.status }).toEqual({ path, body, status: 400 })
      const paths = answer.body.details.fields.map((f: any) => f.path)
      expect(
        paths.some((p: string) => p === field || (field === '(body)' && p === '') || p.startsWith(field)),
        `${JSON.stringify(body)}: ${JSON.stringify(paths)}`,
      ).toBe(true)
    }
    const broken = await call('POST', `/v1/contact/${ANNA}/block`, undefined, t.key, '{"sessionId":')
    expect(broken.status).toBe(400)
    expect(broken.body.details.fields[0].path).toBe('(body)')
    const huge = await call('PUT', `/v1/session/${sessionId}/profile`, {
      about: 'x',
      pictureUrl: dataUrl(Buffer.alloc(300 * 1024)),
    })
    expect(huge.status).toBe(413)
  })

  it('refuses the session’s own number and LID for a block', async () => {
    for (const phone of [ACCOUNT, `${t.sim.account(ACCOUNT).lid}@lid`]) {
      const answer = await call('POST', `/v1/contact/${encodeURIComponent(phone)}/block`, { sessionId })
      expect(answer.status).toBe(400)
      expect(answer.body.details.fields).toEqual([
        { path: 'phone', message: expect.stringMatching(/the session's own/) },
      ])
    }
    expect(t.sim.account(ACCOUNT).blocked()).toEqual([])
  })

  it('refuses hostile photos with 422 and sends nothing, not even the about beside them', async () => {
    const before = t.sim.stats()[ACCOUNT]!.iqs
    const cases: [string, string, RegExp][] = [
      ['not an image', dataUrl(await fixtures.mp3(1), 'image/jpeg'), /not a JPEG, PNG or WebP/],
      [
        'a decompression bomb',
        dataUrl(await pngClaiming(10_000)),
        /10000×10000; a profile photo is made from at most 4096×4096/,
      ],
      ['huge dimensions', dataUrl(await pngClaiming(60_000)), /over 16384 per side/],
      ['a cut-short image', dataUrl((await fixtures.png()).subarray(0, 300)), /not a whole image\/png/],
      ['a declared HTML page', 'data:text/html;base64,PGgxPmhpPC9oMT4=', /takes image\/\*/],
      ['a loopback URL', files.url('photo.jpg'), /loopback|private|local/i],
    ]
    for (const [what, pictureUrl, reason] of cases) {
      const answer = await profile({ about: 'must not change', pictureUrl })
      expect({ what, status: answer.status, error: answer.body.error }).toEqual({
        what,
        status: 422,
        error: 'media_unavailable',
      })
      expect(answer.body.message, what).toMatch(reason)
    }
    expect(files.requests).toEqual([]) // the loopback URL was refused before any connection
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(before)
    expect(t.sim.profile(ACCOUNT).about).toBeUndefined()
    expect(t.sim.profile(ACCOUNT).picture).toBeUndefined()
    expect(t.sim.violations()).toEqual([])
  })

  it('lands concurrent retries: five blocks list the contact once, five abouts leave one', async () => {
    const blocks = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', `/v1/contact/${ANNA}/block`, { sessionId })),
    )
    expect(blocks.map((b) => b.status)).toEqual([200, 200, 200, 200, 200])
    expect((await call('GET', `/v1/contact/blocked?sessionId=${sessionId}`)).body.blocked).toHaveLength(1)
    const abouts = await Promise.all(Array.from({ length: 5 }, (_, i) => profile({ about: `About ${i}` })))
    expect(abouts.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(t.sim.profile(ACCOUNT).about).toMatch(/^About [0-4]$/)
    expect((await call('POST', `/v1/contact/${ANNA}/unblock`, { sessionId })).status).toBe(200)
  })

  it('answers 409 on every route while the session is offline, sending nothing', async () => {
    const account = t.sim.account(ACCOUNT)
    account.fault('unreachable')
    try {
      await t.waitForStatus(sessionId, 'connecting')
      for (const [method, path, body] of routes(sessionId)) {
        const answer = await call(method, path, body)
        expect({ path, status: answer.status, error: answer.body.error }).toEqual({
          path,
          status: 409,
          error: 'session_not_connected',
        })
      }
    } finally {
      account.clearFaults()
    }
    await t.waitForStatus(sessionId, 'connected')
    expect(t.sim.profile(ACCOUNT).about).not.toBe('taken over')
  })
})
