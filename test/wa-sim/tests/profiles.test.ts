import { proto, type WASocket } from '@whiskeysockets/baileys'
import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtures, generate, testPicture } from '../../support/media-fixtures'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554200001'
const OTHER = '15554200002'
const SHOP = '15554200011'
const SHY = '15554200012'
const PLAIN = '15554200013'
const NOBODY = '15554209999'

const pn = (phone: string) => `${phone}@s.whatsapp.net`

/**
 * Profiles, block lists and the account's own settings, as Baileys' chats.js reads and writes them:
 * photos served from the media host (hidden: 401, none: 404), about texts through usync, business
 * profiles through w:biz, the block list (a blocked contact's messages never arrive), and a name
 * change as an app-state patch the phone verifies with the key it shared after linking.
 */
describe('profiles, block lists and the account’s own profile', () => {
  let sim: WhatsAppSimulator
  let control: ControlApi
  let sock: WASocket
  let other: WASocket
  let photo: Buffer
  const received: string[] = []

  const download = (url: string) =>
    new Promise<{ status: number; type?: string; bytes: Buffer }>((resolve, reject) => {
      request(url, { ca: sim.config.mediaCaPem }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'],
            bytes: Buffer.concat(chunks),
          }),
        )
      })
        .on('error', reject)
        .end()
    })
  const violationsSince = (count: number) => sim.violations().slice(count)

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ contacts: [SHOP, SHY, PLAIN] })
    control = await ControlApi.start(sim)
    photo = Buffer.from(await generate([...testPicture('640x640', 1), '-frames:v', '1'], 'jpg'))
    sim.setProfile(SHOP, {
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
          days: [{ day: 'mon', mode: 'specific_hours', openMinutes: 540, closeMinutes: 1080 }],
        },
      },
    })
    sim.setProfile(SHY, { about: 'secret', picture: photo, privacy: { picture: 'none', about: 'none' } })
    ;({ sock } = await pairByQr(sim, ACCOUNT))
    ;({ sock: other } = await pairByQr(sim, OTHER))
    sock.ev.on('messages.upsert', ({ messages }) => {
      for (const message of messages) if (!message.key.fromMe) received.push(message.key.id ?? '')
    })
    await sim.account(ACCOUNT).waitForAppStateKey()
  }, 60_000)
  afterAll(async () => {
    closeSocket(sock)
    closeSocket(other)
    await control.stop()
    await sim.stop()
  })

  it('serves a contact’s photo from the media host; a hidden one is 401, none is 404', async () => {
    const url = await sock.profilePictureUrl(pn(SHOP), 'image')
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)
    const fetched = await download(url!)
    expect(fetched).toMatchObject({ status: 200, type: 'image/jpeg' })
    expect(fetched.bytes.equals(photo)).toBe(true)
    await expect(sock.profilePictureUrl(pn(SHY), 'image')).rejects.toMatchObject({ data: 401 })
    await expect(sock.profilePictureUrl(pn(PLAIN), 'image')).rejects.toMatchObject({ data: 404 })
    await expect(sock.profilePictureUrl(pn(NOBODY), 'image')).rejects.toMatchObject({ data: 404 })
    // By LID too
    expect(await sock.profilePictureUrl(`${sim.contact(SHOP).lid}@lid`, 'image')).toBe(url)
  })

  it('answers the about text through usync; hidden is "", none is null', async () => {
    const [shop] = (await sock.fetchStatus(pn(SHOP))) as any[]
    expect(shop.status).toMatchObject({ status: 'Open every day' })
    expect(shop.status.setAt.getTime()).toBeGreaterThan(0)
    const [shy] = (await sock.fetchStatus(pn(SHY))) as any[]
    expect(shy.status.status).toBe('')
    const [plain] = (await sock.fetchStatus(pn(PLAIN))) as any[]
    expect(plain.status.status).toBeNull()
  })

  it('answers a business profile for a business, nothing for a personal account', async () => {
    expect(await sock.getBusinessProfile(pn(SHOP))).toMatchObject({
      description: 'Bicycles and repairs',
      category: 'Bicycle Shop',
      email: 'shop@example.com',
      website: ['https://shop.example.com'],
      address: '1 Main St',
      business_hours: {
        timezone: 'Europe/Berlin',
        business_config: [{ day_of_week: 'mon', mode: 'specific_hours', open_time: '540', close_time: '1080' }],
      },
    })
    expect(await sock.getBusinessProfile(pn(PLAIN))).toBeUndefined()
  })

  it('keeps a block list: a blocked contact’s messages never arrive, and arrive again after unblocking', async () => {
    await sock.onWhatsApp(PLAIN) // teaches Baileys the LID it blocks by
    await sock.updateBlockStatus(pn(PLAIN), 'block')
    expect(sim.account(ACCOUNT).blocked()).toEqual([{ phone: PLAIN, lid: sim.contact(PLAIN).lid }])
    expect(await sock.fetchBlocklist()).toEqual([`${sim.contact(PLAIN).lid}@lid`])
    const lost = await sim.contact(PLAIN).send({ text: 'while blocked' }, { to: ACCOUNT })
    // The photo and about of the blocker are hidden from the blocked, as WhatsApp does
    await sock.updateBlockStatus(pn(PLAIN), 'unblock')
    expect(sim.account(ACCOUNT).blocked()).toEqual([])
    const arrived = await sim.contact(PLAIN).send({ text: 'after unblocking' }, { to: ACCOUNT })
    await expect.poll(() => received.includes(arrived)).toBe(true)
    expect(received).not.toContain(lost)
    expect(await (await fetch(`${control.url}/accounts/${ACCOUNT}/blocklist`)).json()).toEqual([])
  })

  it('hides the blocker’s photo and about from the user it blocked', async () => {
    sim.setProfile(ACCOUNT, { about: 'mine', picture: photo })
    expect(await other.profilePictureUrl(pn(ACCOUNT), 'image')).toMatch(/^https:/)
    await sock.onWhatsApp(OTHER)
    await sock.updateBlockStatus(pn(OTHER), 'block')
    await expect(other.profilePictureUrl(pn(ACCOUNT), 'image')).rejects.toMatchObject({ data: 401 })
    const [about] = (await other.fetchStatus(pn(ACCOUNT))) as any[]
    expect(about.status.status).toBe('')
    await sock.updateBlockStatus(pn(OTHER), 'unblock')
    expect(await other.profilePictureUrl(pn(ACCOUNT), 'image')).toMatch(/^https:/)
  })

  it('takes the account’s own about, photo and name as its client sends them', async () => {
    const before = sim.violations().length
    await sock.updateProfileStatus('Back at 5')
    expect(sim.profile(ACCOUNT).about).toBe('Back at 5')
    const png = Buffer.from(await fixtures.png())
    await sock.updateProfilePicture(pn(ACCOUNT), png) // Baileys makes it a 640×640 JPEG
    const mine = sim.profile(ACCOUNT).picture!
    expect(mine.side).toBe(640)
    expect((await download(mine.url)).bytes.equals(mine.bytes)).toBe(true)
    expect(await other.profilePictureUrl(pn(ACCOUNT), 'image')).toBe(mine.url)
    await sock.updateProfileName('Sales desk')
    expect(sim.profile(ACCOUNT).name).toBe('Sales desk')
    expect(sock.authState.creds.me?.name).toBe('Sales desk')
    await sock.updateProfileName('Sales desk 2')
    expect(sim.profile(ACCOUNT).name).toBe('Sales desk 2')
    // Contacts see the new name on the account's messages
    const seen = new Promise<string | undefined>((resolve) =>
      other.ev.on('messages.upsert', ({ messages }) => resolve(messages[0]?.pushName ?? undefined)),
    )
    await sock.sendMessage(pn(OTHER), { text: 'hello' })
    expect(await seen).toBe('Sales desk 2')
    await sock.removeProfilePicture(pn(ACCOUNT))
    expect(sim.profile(ACCOUNT).picture).toBeUndefined()
    expect((await download(mine.url)).status).toBe(404)
    expect(violationsSince(before)).toEqual([])
  })

  it('sets and reads profiles over the control API, refusing a photo WhatsApp would refuse', async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${control.url}${path}`, {
        method,
        ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      })
      return { status: response.status, body: (await response.json()) as any }
    }
    expect(
      await call('PUT', `/users/${PLAIN}/profile`, { about: 'via control', picture: photo.toString('base64') }),
    ).toEqual({
      status: 200,
      body: { ok: true },
    })
    const read = await call('GET', `/users/${PLAIN}/profile`)
    expect(read.body).toMatchObject({
      about: 'via control',
      picture: { side: 640 },
      privacy: { picture: 'all', about: 'all' },
    })
    expect((await download(read.body.picture.url)).bytes.equals(photo)).toBe(true)
    const png = Buffer.from(await fixtures.png()).toString('base64')
    expect(await call('PUT', `/users/${PLAIN}/profile`, { picture: png })).toMatchObject({
      status: 400,
      body: { error: 'picture_bad_request' },
    })
    expect((await call('GET', `/users/${NOBODY}/profile`)).status).toBe(404)
    expect(await call('PUT', `/users/${PLAIN}/profile`, { about: null, picture: null })).toMatchObject({ status: 200 })
    expect((await call('GET', `/users/${PLAIN}/profile`)).body).toEqual({ privacy: { picture: 'all', about: 'all' } })
  })

  it('refuses a photo that is no JPEG (400) or not a square of 192–640 px (406), as violations', async () => {
    const before = sim.violations().length
    const set = (bytes: Uint8Array) =>
      sock.query({
        tag: 'iq',
        attrs: { to: 's.whatsapp.net', type: 'set', xmlns: 'w:profile:picture' },
        content: [{ tag: 'picture', attrs: { type: 'image' }, content: Buffer.from(bytes) }],
      })
    await expect(set(await fixtures.png())).rejects.toMatchObject({ data: 400 })
    await expect(set(await generate([...testPicture('700x700', 1), '-frames:v', '1'], 'jpg'))).rejects.toMatchObject({
      data: 406,
    })
    await expect(set(await generate([...testPicture('640x480', 1), '-frames:v', '1'], 'jpg'))).rejects.toMatchObject({
      data: 406,
    })
    await expect(set(photo.subarray(0, photo.length - 100))).rejects.toMatchObject({ data: 400 })
    expect(violationsSince(before).map((v) => v.kind)).toEqual(Array(4).fill('invalid-profile-picture'))
  })

  it('refuses malformed blocklist, status and app-state iqs, and a patch it cannot verify', async () => {
    const before = sim.violations().length
    const iq = (xmlns: string, content: any[]) =>
      sock.query({ tag: 'iq', attrs: { to: 's.whatsapp.net', type: 'set', xmlns }, content })
    await expect(iq('blocklist', [{ tag: 'item', attrs: { action: 'block', jid: pn(PLAIN) } }])).rejects.toMatchObject({
      data: 400,
    })
    await expect(
      iq('blocklist', [
        { tag: 'item', attrs: { action: 'block', jid: `${sim.contact(PLAIN).lid}@lid`, pn_jid: pn(SHOP) } },
      ]),
    ).rejects.toMatchObject({ data: 400 })
    await expect(
      iq('blocklist', [{ tag: 'item', attrs: { action: 'block', jid: '999999999@lid', pn_jid: pn(NOBODY) } }]),
    ).rejects.toMatchObject({ data: 404 })
    await expect(
      iq('status', [{ tag: 'status', attrs: {}, content: Buffer.from('x'.repeat(140)) }]),
    ).rejects.toMatchObject({
      data: 406,
    })
    const keyId = Buffer.from(sock.authState.creds.myAppStateKeyId!, 'base64')
    const forged = proto.SyncdPatch.encode({
      keyId: { id: keyId },
      patchMac: Buffer.alloc(32, 1),
      snapshotMac: Buffer.alloc(32, 2),
      mutations: [],
    }).finish()
    const state = sim.profile(ACCOUNT)
    const synced = await iq('w:sync:app:state', [
      { tag: 'sync', attrs: {}, content: [{ tag: 'collection', attrs: { name: 'critical_block', version: '0' } }] },
    ])
    const version = (synced as any).content[0].content[0].attrs.version as string
    await expect(
      iq('w:sync:app:state', [
        {
          tag: 'sync',
          attrs: {},
          content: [
            {
              tag: 'collection',
              attrs: { name: 'critical_block', version, return_snapshot: 'false' },
              content: [{ tag: 'patch', attrs: {}, content: Buffer.from(forged) }],
            },
          ],
        },
      ]),
    ).rejects.toMatchObject({ data: 400 })
    expect(sim.profile(ACCOUNT).name).toBe(state.name)
    expect(violationsSince(before).map((v) => v.kind)).toEqual([
      'malformed-node',
      'malformed-node',
      'over-limit',
      'invalid-app-state-patch',
    ])
  })
})
