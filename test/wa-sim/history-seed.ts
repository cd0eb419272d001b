// Seeding a phone's history before it links a device: new sim contacts to chat with (each with
// its own number, LID and push name, so it can write live afterwards), groups of the account and
// some of them (real sim groups, so metadata queries answer), and the media messages' files.
// The messages themselves are made when sent (history-messages.ts).
import { Contact } from './contact'
import { encryptAndUpload } from './contact-media'
import { SimulatorError } from './errors'
import { FIXTURES, fixture } from './fixtures'
import { newInviteCode } from './group-ops'
import { historyMessageId, messageTime, type SeededConversation, type SeededHistory } from './history-model'
import type { SeededParty } from './history-model'
import { profileOf } from './profiles'
import type { SimState } from './state'

export interface HistorySeed {
  /** 1:1 chats, each with a new contact (0–1000) */
  chats: number
  /** Messages in every chat and group (1–100,000) */
  messagesPerChat: number
  /** The messages spread over the last `days` days (1–3650) */
  days: number
  /** Groups of the account and some of the chats' contacts (0–100, default 0) */
  groups?: number
  /** Image messages per chat, files on the media host (0–messagesPerChat, default 0; 10,000 in all at most) */
  media?: number
  /** The most messages one chunk holds (1–100,000, default 1,000) */
  messagesPerChunk?: number
}

export interface HistorySummary {
  phone: string
  chats: {
    jid: string
    phone: string
    lid: string
    /** The saved contact name (the conversation's name); the push name comes in the PUSH_NAME chunk */
    name: string
    pushName: string
    addressing: 'lid' | 'pn'
    messages: number
    unread: number
    archived: boolean
    pinned: boolean
    muted: boolean
    oldest: number
    newest: number
  }[]
  groups: {
    jid: string
    subject: string
    participants: string[]
    messages: number
    unread: number
    oldest: number
    newest: number
  }[]
  /** Messages in all chats and groups */
  messages: number
  oldest: number
  newest: number
  mediaMessageIds: string[]
}

const MAX_MEDIA_IN_ALL = 10_000

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kemi', 'Luca']
const LAST = ['Silva', 'Okafor', 'Novak', 'Tanaka', 'Moreau', 'Haddad', 'Berg', 'Costa', 'Reyes', 'Kowalski']

const whole = (value: unknown, field: string, min: number, max: number): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new SimulatorError('invalid_request', `"${field}" must be a whole number from ${min} to ${max}`)
  return value
}

/** The seed's numbers, checked as strictly as the control API checks everything. */
export const checkSeed = (seed: HistorySeed): Required<HistorySeed> => {
  const messagesPerChat = whole(seed.messagesPerChat, 'messagesPerChat', 1, 100_000)
  const checked = {
    chats: whole(seed.chats, 'chats', 0, 1000),
    messagesPerChat,
    days: whole(seed.days, 'days', 1, 3650),
    groups: whole(seed.groups ?? 0, 'groups', 0, 100),
    media: whole(seed.media ?? 0, 'media', 0, messagesPerChat),
    messagesPerChunk: whole(seed.messagesPerChunk ?? 1000, 'messagesPerChunk', 1, 100_000),
  }
  if (checked.chats * checked.media > MAX_MEDIA_IN_ALL)
    throw new SimulatorError('invalid_request', `chats × media is at most ${MAX_MEDIA_IN_ALL} files`)
  return checked
}

let nextSerial = 1

export const seedHistory = async (state: SimState, phone: string, seed: HistorySeed): Promise<HistorySummary> => {
  const options = checkSeed(seed)
  if (state.accounts.get(phone)?.linked)
    throw new SimulatorError(
      'account_linked',
      `${phone} already linked a device: seed its history before it scans`,
      409,
    )
  if (state.histories.has(phone))
    throw new SimulatorError('history_seeded', `${phone} already has a seeded history`, 409)
  if (state.contactByPhone(phone)) throw new SimulatorError('phone_in_use', `${phone} is a contact`, 409)
  const now = Math.floor(Date.now() / 1000)
  const total = options.chats + options.groups
  const history: SeededHistory = {
    phone,
    serial: nextSerial++,
    // a second apart per conversation, all within `days`
    span: options.days * 86_400 - total - 1,
    messagesPerChunk: options.messagesPerChunk,
    conversations: [],
    media: new Map(),
  }
  const newContact = (n: number): SeededParty => {
    const contact = new Contact(state.allocatePhone(), state.allocateLid())
    state.contacts.set(contact.phone, contact)
    const pushName = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]![0]}.`
    profileOf(state, contact.phone).name = pushName
    return { phone: contact.phone, lid: contact.lid, pushName }
  }
  const base = { messages: options.messagesPerChat, archived: false, pinned: 0, muteEndTime: 0 }
  for (let c = 0; c < options.chats; c++) {
    const party = newContact(c)
    const addressing = c % 2 === 0 ? 'lid' : 'pn'
    const round = Math.floor(c / (FIRST.length * LAST.length))
    history.conversations.push({
      ...base,
      index: c,
      kind: 'chat',
      jid: addressing === 'lid' ? `${party.lid}@lid` : `${party.phone}@s.whatsapp.net`,
      name: `${FIRST[c % FIRST.length]} ${LAST[Math.floor(c / FIRST.length) % LAST.length]}${round ? ` ${round + 1}` : ''}`,
      addressing,
      authors: [party],
      newest: now - 1 - c,
      unread: Math.min(c % 4, options.messagesPerChat),
      archived: c === 1,
      pinned: c === 0 ? now - 3600 : 0,
      muteEndTime: c === 2 ? now + 8 * 3600 : 0,
    })
  }
  const pool = history.conversations.map((conversation) => conversation.authors[0]!)
  while (options.groups > 0 && pool.length < 2) pool.push(newContact(options.chats + pool.length))
  for (let g = 0; g < options.groups; g++) {
    const authors = [...new Set([0, 1, 2].map((k) => pool[(g * 3 + k) % pool.length]!))]
    const index = options.chats + g
    const subject = `Group ${g + 1}: ${FIRST[g % FIRST.length]}'s friends`
    history.conversations.push({
      ...base,
      index,
      kind: 'group',
      jid: createSeededGroup(state, phone, subject, authors, now),
      name: subject,
      authors,
      newest: now - 1 - index,
      unread: Math.min(g % 3, options.messagesPerChat),
    })
  }
  await uploadMedia(state, history, options.media)
  state.histories.set(phone, history)
  return summarize(history)
}

/** A group in sim state (the account an admin, the first author its creator), so it answers once the device links. */
const createSeededGroup = (
  state: SimState,
  accountPhone: string,
  subject: string,
  authors: SeededParty[],
  now: number,
): string => {
  const jidFor = (n: number) => `120363${String(Date.now()).slice(-9)}${String(n).padStart(3, '0')}@g.us`
  let n = state.groups.size
  let jid = jidFor(n)
  while (state.groups.has(jid)) jid = jidFor(++n)
  const owner = authors[0]!.phone
  state.groups.set(jid, {
    jid,
    subject,
    subjectTime: now - 86_400,
    subjectOwner: owner,
    owner,
    participants: [owner, accountPhone, ...authors.slice(1).map((author) => author.phone)],
    admins: new Set([accountPhone]),
    description: undefined,
    announce: false,
    restrict: false,
    inviteCode: newInviteCode(),
    revokedInviteCodes: new Set(),
    recentlyLeft: new Map(),
    createdAt: now - 86_400,
  })
  return jid
}

/** `perChat` image messages in each chat, evenly spaced from the newest: each a real encrypted file. */
const uploadMedia = async (state: SimState, history: SeededHistory, perChat: number): Promise<void> => {
  if (perChat === 0) return
  const { bytes } = fixture('jpeg')
  const { mimetype, width, height } = FIXTURES.jpeg
  for (const conversation of history.conversations) {
    if (conversation.kind !== 'chat') continue
    const n = conversation.messages
    for (let k = 0; k < perChat; k++) {
      const index = n - 1 - Math.floor((k * n) / perChat)
      const { url, directPath, mediaKey, fileSha256, fileEncSha256, fileLength, mediaKeyTimestamp } =
        await encryptAndUpload(state, bytes, 'image', '/mms/image')
      history.media.set(historyMessageId(history, conversation, index), {
        url,
        directPath,
        mediaKey,
        fileSha256,
        fileEncSha256,
        fileLength,
        mediaKeyTimestamp,
        mimetype,
        width,
        height,
      })
    }
  }
}

export const summarize = (history: SeededHistory): HistorySummary => {
  const span = (conversation: SeededConversation) => ({
    messages: conversation.messages,
    unread: conversation.unread,
    oldest: messageTime(history, conversation, 0),
    newest: conversation.newest,
  })
  const conversations = history.conversations
  return {
    phone: history.phone,
    chats: conversations
      .filter((conversation) => conversation.kind === 'chat')
      .map((conversation) => {
        const contact = conversation.authors[0]!
        return {
          jid: conversation.jid,
          phone: contact.phone,
          lid: contact.lid,
          name: conversation.name,
          pushName: contact.pushName,
          addressing: conversation.addressing!,
          ...span(conversation),
          archived: conversation.archived,
          pinned: conversation.pinned > 0,
          muted: conversation.muteEndTime > 0,
        }
      }),
    groups: conversations
      .filter((conversation) => conversation.kind === 'group')
      .map((conversation) => ({
        jid: conversation.jid,
        subject: conversation.name,
        participants: [history.phone, ...conversation.authors.map((author) => author.phone)],
        ...span(conversation),
      })),
    messages: conversations.reduce((sum, conversation) => sum + conversation.messages, 0),
    // 0 when there is nothing (no chats, no groups)
    oldest: conversations.length ? Math.min(...conversations.map((c) => messageTime(history, c, 0))) : 0,
    newest: conversations.length ? Math.max(...conversations.map((c) => c.newest)) : 0,
    mediaMessageIds: [...history.media.keys()],
  }
}
