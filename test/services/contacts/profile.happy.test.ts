import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generate, testPicture } from '../../support/media-fixtures'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550041001'
const SHOP = '15551410001'
const SHY = '15551410002'
const PLAIN = '15551410003'
const NOBODY = '15551419999'

/**
 * GET /v1/contact/{phone}/profile end to end: the real Baileys client asks the simulator (usync for
 * the account, LID and about; the photo; the business profile) and the push name comes from a
 * message the session received.
 */
describe('a contact’s profile', () => {
  let t: SimulatedGateway
  let sessionId: string
  let photo: Buffer

  const profileOf = (phone: string) => t.get(`/v1/contact/${encodeURIComponent(phone)}/profile?sessionId=${sessionId}`)
  const download = (url: string) =>
    new Promise<Buffer>((resolve, reject) => {
      request(url, { ca: t.sim.config.mediaCaPem }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve(Buffer.concat(chunks)))
      })
        .on('error', reject)
        .end()
    })

  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid' })
    for (const phone of [SHOP, SHY, PLAIN]) t.sim.addContact(phone)
    photo = Buffer.from(await generate([...testPicture('640x640', 1), '-frames:v', '1'], 'jpg'))
    t.sim.setProfile(SHOP, {
      name: 'Bike Shop',
      about: 'Open every day',
      picture: photo,
      business: {
        description: 'Bicycles and repairs',
        category: 'Bicycle Shop',
        email: 'shop@example.com',
        website: 'https://shop.example.com',
        address: '1 Main St',
        hours: {
          timezone: 'Europe/Berlin',
          days: [
            { day: 'mon', mode: 'specific_hours', openMinutes: 540, closeMinutes: 1080 },
            { day: 'sat', mode: 'open_24h' },
          ],
        },
      },
    })
    t.sim.setProfile(SHY, { about: 'secret', picture: photo, privacy: { picture: 'none', about: 'none' } })
    sessionId = await t.pairByQr('main', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('answers a business’s about, photo and business profile, and the push name of its message', async () => {
    const id = await t.sim.contact(SHOP).send({ text: 'hello' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, id, (record) => record?.status === 'received')
    const { status, body } = await profileOf(`+${SHOP}`)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({
      phone: SHOP,
      lid: `${t.sim.contact(SHOP).lid}@lid`,
      name: 'Bike Shop',
      about: 'Open every day',
      aboutSetAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pictureUrl: t.sim.profile(SHOP).picture!.url,
      business: {
        description: 'Bicycles and repairs',
        category: 'Bicycle Shop',
        email: 'shop@example.com',
        website: 'https://shop.example.com',
        address: '1 Main St',
        hours: {
          timezone: 'Europe/Berlin',
          days: [
            { day: 'mon', mode: 'specific_hours', open: '09:00', close: '18:00' },
            { day: 'sat', mode: 'open_24h', open: null, close: null },
          ],
        },
      },
    })
    // The URL WhatsApp gave is the photo itself
    expect((await download(body.pictureUrl)).equals(photo)).toBe(true)
  })

  it('answers the same by LID', async () => {
    const byNumber = (await profileOf(SHOP)).body
    const { status, body } = await profileOf(`${t.sim.contact(SHOP).lid}@lid`)
    expect(status).toBe(200)
    expect(body).toEqual(byNumber)
  })

  it('answers null for a photo and about the contact hides, and for what a personal account lacks', async () => {
    const shy = await profileOf(SHY)
    expect(shy).toEqual({
      status: 200,
      body: {
        phone: SHY,
        lid: `${t.sim.contact(SHY).lid}@lid`,
        name: null,
        about: null,
        aboutSetAt: null,
        pictureUrl: null,
        business: null,
      },
    })
    const plain = await profileOf(PLAIN)
    expect(plain.body).toMatchObject({ phone: PLAIN, about: null, pictureUrl: null, business: null })
    // A photo set later shows at once: nothing is cached
    t.sim.setProfile(PLAIN, { picture: photo, about: 'now with a photo' })
    expect((await profileOf(PLAIN)).body).toMatchObject({
      about: 'now with a photo',
      pictureUrl: t.sim.profile(PLAIN).picture!.url,
    })
  })

  it('answers the latest push name the contact’s messages carried', async () => {
    t.sim.setProfile(PLAIN, { name: 'Plain Jane' })
    const id = await t.sim.contact(PLAIN).send({ text: 'first' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, id, (record) => record?.status === 'received')
    expect((await profileOf(PLAIN)).body.name).toBe('Plain Jane')
    t.sim.setProfile(PLAIN, { name: 'Jane' })
    const next = await t.sim.contact(PLAIN).send({ text: 'second' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, next, (record) => record?.status === 'received')
    expect((await profileOf(PLAIN)).body.name).toBe('Jane')
  })

  it('is 404 for a number without WhatsApp, and counts against no contact-check quota', async () => {
    const { status, body } = await profileOf(NOBODY)
    expect(status).toBe(404)
    expect(body).toMatchObject({ error: 'not_found', message: `${NOBODY} has no WhatsApp account` })
    const lid = await profileOf('999999999999@lid')
    expect(lid.status).toBe(404)
    // The profiles above counted nothing: the first contact check of the day leaves limit - 1
    const check = await t.post('/v1/contact/check', { sessionId, phones: [SHOP] })
    expect(check.status).toBe(200)
    expect(Number(check.headers.get('RateLimit-Remaining'))).toBe(Number(check.headers.get('RateLimit-Limit')) - 1)
    expect(t.sim.violations()).toEqual([])
  })
})
