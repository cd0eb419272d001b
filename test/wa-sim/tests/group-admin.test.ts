import type { GroupMetadata, GroupParticipant, ParticipantAction, WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ADMIN = '15554500001'
const SECOND = '15554500002'
const ANNA = '15554500101'
const BORIS = '15554500102'
const PRIVATE = '15554500103'
const NOBODY = '15554500999'

const pn = (phone: string) => `${phone}@s.whatsapp.net`

interface ParticipantsUpdate {
  id: string
  author: string
  participants: GroupParticipant[]
  action: ParticipantAction
}

/** What Baileys makes of the simulator's w:gp2 notifications, per socket. */
const listen = (sock: WASocket) => {
  const seen = {
    upserts: [] as GroupMetadata[],
    updates: [] as Partial<GroupMetadata>[],
    participants: [] as ParticipantsUpdate[],
  }
  sock.ev.on('groups.upsert', (groups) => seen.upserts.push(...groups))
  sock.ev.on('groups.update', (updates) => seen.updates.push(...updates))
  sock.ev.on('group-participants.update', (update) => seen.participants.push(update as ParticipantsUpdate))
  return seen
}

/** The raw answer to a create: Baileys' groupCreate hides the per-participant errors. */
const createRaw = (sock: WASocket, subject: string, phones: string[]) =>
  sock.query({
    tag: 'iq',
    attrs: { type: 'set', xmlns: 'w:g2', to: '@g.us' },
    content: [
      {
        tag: 'create',
        attrs: { subject, key: 'KEY1' },
        content: phones.map((p) => ({ tag: 'participant', attrs: { jid: pn(p) } })),
      },
    ],
  })

describe('group administration iqs and w:gp2 notifications (real Baileys)', () => {
  let sim: WhatsAppSimulator
  let admin: WASocket
  let second: WASocket
  let adminSeen: ReturnType<typeof listen>
  let secondSeen: ReturnType<typeof listen>
  let groupJid: string

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    for (const phone of [ANNA, BORIS, PRIVATE]) sim.addContact(phone)
    sim.setGroupAddPrivacy(PRIVATE, 'none')
    admin = (await pairByQr(sim, ADMIN)).sock
    second = (await pairByQr(sim, SECOND)).sock
    adminSeen = listen(admin)
    secondSeen = listen(second)
  })
  afterAll(async () => {
    closeSocket(admin)
    closeSocket(second)
    await sim.stop()
  })

  it('creates a group: each refused participant answered with its code, a privacy refusal with an invite', async () => {
    const result = await createRaw(admin, 'Team', [ANNA, PRIVATE, NOBODY])
    const group = (result.content as any[]).find((n) => n.tag === 'group')
    groupJid = `${group.attrs.id}@g.us`
    const participants = (group.content as any[]).filter((n) => n.tag === 'participant')
    const byJid = new Map(participants.map((p) => [p.attrs.phone_number ?? p.attrs.jid, p]))
    expect(byJid.get(pn(ANNA))?.attrs).toMatchObject({ jid: `${sim.contact(ANNA).lid}@lid` })
    expect(byJid.get(pn(ADMIN))?.attrs.type).toBe('superadmin')
    expect(byJid.get(pn(PRIVATE))?.attrs.error).toBe('403')
    expect(byJid.get(pn(PRIVATE))?.content[0]).toMatchObject({ tag: 'add_request' })
    expect(byJid.get(pn(NOBODY))?.attrs.error).toBe('404')
    expect(group.attrs.size).toBe('2')
    // The creator's device learns the group from the create notification, with its key
    await expect.poll(() => adminSeen.upserts.map((g) => g.id)).toContain(groupJid)
    expect(
      sim
        .group(groupJid)
        .info()
        .participants.map((p) => p.phone),
    ).toEqual([ADMIN, ANNA])
  })

  it('adds, promotes, demotes and removes with a code per participant; members see each change', async () => {
    const added = await admin.groupParticipantsUpdate(groupJid, [pn(BORIS), pn(ANNA), pn(PRIVATE)], 'add')
    expect(added.map((r) => r.status)).toEqual(['200', '409', '403'])
    expect((added[2]!.content as any).content[0].tag).toBe('add_request')
    expect(await admin.groupParticipantsUpdate(groupJid, [pn(BORIS)], 'promote')).toMatchObject([{ status: '200' }])
    expect(await admin.groupParticipantsUpdate(groupJid, [pn(BORIS)], 'demote')).toMatchObject([{ status: '200' }])
    expect(await admin.groupParticipantsUpdate(groupJid, [pn(BORIS), pn(NOBODY)], 'remove')).toMatchObject([
      { status: '200' },
      { status: '404' },
    ])
    await expect
      .poll(() => adminSeen.participants.filter((u) => u.id === groupJid).map((u) => u.action))
      .toEqual(['add', 'promote', 'demote', 'remove'])
    const first = adminSeen.participants[0]!
    expect(first.participants[0]?.phoneNumber).toBe(pn(BORIS))
    // rc14 drops participant_pn on the way (proto keys have no participantAlt): the author is its LID
    expect(first.author).toBe(`${sim.account(ADMIN).lid}@lid`)
    expect(sim.violations()).toEqual([])
  })

  it('lets a second account join by the invite link: it learns the group, the others see it added', async () => {
    const code = await admin.groupInviteCode(groupJid)
    expect(code).toMatch(/^[A-Za-z0-9]{22}$/)
    expect(await second.groupAcceptInvite(code!)).toBe(groupJid)
    await expect.poll(() => secondSeen.upserts.map((g) => g.id)).toContain(groupJid)
    await expect
      .poll(() => adminSeen.participants.at(-1))
      .toMatchObject({
        action: 'add',
        participants: [{ phoneNumber: pn(SECOND) }],
        author: `${sim.account(SECOND).lid}@lid`,
      })
    // A non-admin is refused what only admins may do
    await expect(second.groupSettingUpdate(groupJid, 'announcement')).rejects.toThrow('not-authorized')
    await expect(second.groupInviteCode(groupJid)).rejects.toThrow('not-authorized')
    await expect(second.groupParticipantsUpdate(groupJid, [pn(ANNA)], 'remove')).rejects.toThrow('not-authorized')
    // A reset link no longer opens the group
    const fresh = await admin.groupRevokeInvite(groupJid)
    expect(fresh).not.toBe(code)
    await expect(second.groupAcceptInvite(code!)).rejects.toThrow('gone')
    await expect(second.groupAcceptInvite('nosuchcode')).rejects.toThrow('not-acceptable')
  })

  it('sends subject, description and settings changes to every member, by whoever made them', async () => {
    await admin.groupUpdateSubject(groupJid, 'Team two')
    await admin.groupUpdateDescription(groupJid, 'What we do')
    await admin.groupSettingUpdate(groupJid, 'announcement')
    await admin.groupSettingUpdate(groupJid, 'locked')
    sim.group(groupJid).by(ANNA).leave()
    for (const seen of [adminSeen, secondSeen]) {
      await expect
        .poll(() => seen.updates.filter((u) => u.id === groupJid && !('participants' in u) && !('inviteCode' in u)))
        .toMatchObject([{ subject: 'Team two' }, { desc: 'What we do' }, { announce: true }, { restrict: true }])
    }
    const metadata = await second.groupMetadata(groupJid)
    expect(metadata).toMatchObject({ subject: 'Team two', desc: 'What we do', announce: true, restrict: true })
    // Locked: a member who is not an admin cannot rename it
    await expect(second.groupUpdateSubject(groupJid, 'mine now')).rejects.toThrow('not-authorized')
    expect(() => sim.group(groupJid).by(ANNA).setSubject('x')).toThrow(/forbidden/)
    expect(sim.stats()[SECOND]?.groupMetadataQueries).toBe(1)
  })

  it('leaving tells every member, the leaver too; then the group is forbidden to it', async () => {
    await second.groupLeave(groupJid)
    for (const seen of [adminSeen, secondSeen]) {
      await expect
        .poll(() => seen.participants.at(-1))
        .toMatchObject({
          action: 'remove',
          participants: [{ phoneNumber: pn(SECOND) }],
          author: `${sim.account(SECOND).lid}@lid`,
        })
    }
    await expect(second.groupMetadata(groupJid)).rejects.toThrow('forbidden')
    await expect(second.groupMetadata('120363000000000009@g.us')).rejects.toThrow('item-not-found')
    // Left by itself: WhatsApp refuses adding it back for a while
    expect(await admin.groupParticipantsUpdate(groupJid, [pn(SECOND)], 'add')).toMatchObject([{ status: '408' }])
    expect(sim.violations()).toEqual([])
  })

  it('records malformed and over-limit iqs as violations', async () => {
    await expect(admin.groupUpdateSubject(groupJid, 'x'.repeat(101))).rejects.toThrow('not-acceptable')
    await expect(admin.groupParticipantsUpdate(groupJid, ['not-a-jid'], 'add')).rejects.toThrow('bad-request')
    await expect(admin.groupParticipantsUpdate(groupJid, [pn(NOBODY), pn(NOBODY)], 'add')).rejects.toThrow(
      'bad-request',
    )
    expect(sim.violations().map((v) => v.kind)).toEqual(['over-limit', 'malformed-node', 'malformed-node'])
    expect(sim.violations()[2]!.detail).toMatch(/listed twice/)
  })
})
