import { describe, expect, it } from 'vitest'
import { inChat, type Message, mergeMessage, place, sendRouteFor } from '../../src/panel/screens/inbox/rules'

const message = (messageId: string, createdAt: string, extra: Partial<Message> = {}) =>
  ({ messageId, createdAt, type: 'text', status: 'received', content: {}, ...extra }) as Message

/** The inbox's small rules, each branch: where a message goes, what an update may change, which chat it is. */
describe('the inbox’s rules', () => {
  it('places a message in the API’s order (time, then id) and leaves one older than the shown page to its page', () => {
    const a = message('A', '2025-01-01T10:00:00.000Z')
    const c = message('C', '2025-01-01T10:00:00.000Z')
    const d = message('D', '2025-01-01T10:00:05.000Z')
    expect(place([a, c], message('B', '2025-01-01T10:00:00.000Z'), false).map((m) => m.messageId)).toEqual([
      'A',
      'B',
      'C',
    ])
    expect(place([a, c], d, true).map((m) => m.messageId)).toEqual(['A', 'C', 'D'])
    // Older than the oldest shown: on a page still unread (left out), or the start of the chat (placed first).
    const older = message('0', '2025-01-01T09:59:59.000Z')
    expect(place([a, c], older, true).map((m) => m.messageId)).toEqual(['A', 'C'])
    expect(place([a, c], older, false).map((m) => m.messageId)).toEqual(['0', 'A', 'C'])
    expect(place([], older, true)).toEqual([older])
  })

  it('never moves an outbound status back, but lets failed and deleted through', () => {
    const read = message('X', '2025-01-01T10:00:00.000Z', { direction: 'outbound', status: 'read' })
    expect(mergeMessage(read, { status: 'delivered' }).status).toBe('read')
    expect(mergeMessage(read, { status: 'played' }).status).toBe('played')
    expect(mergeMessage(read, { status: 'deleted' }).status).toBe('deleted')
    expect(mergeMessage(undefined, { messageId: 'Y', status: 'sent' }).status).toBe('sent')
  })

  it('tells a message’s chat by number, LID or group, never taking a group sender’s LID for their own chat', () => {
    const ana = { chat: '15551230001', lid: '111@lid' }
    expect(inChat(ana, { phone: '15551230001', lid: null })).toBe(true)
    expect(inChat(ana, { phone: null, lid: '111@lid' })).toBe(true)
    expect(inChat(ana, { phone: '999@g.us', lid: '111@lid' })).toBe(false)
    expect(inChat({ chat: '999@g.us' }, { phone: '999@g.us', lid: '111@lid' })).toBe(true)
    expect(inChat({ chat: '222@lid' }, { phone: null, lid: '222@lid' })).toBe(true)
    expect(inChat(ana, { phone: '15551230002', lid: '333@lid' })).toBe(false)
  })

  it('sends each file type by the route that takes it as a data: URL', () => {
    expect(sendRouteFor('image/png')).toEqual({ route: 'image', field: 'imageUrl' })
    expect(sendRouteFor('image/gif')).toEqual({ route: 'document', field: 'documentUrl' })
    expect(sendRouteFor('video/webm')).toEqual({ route: 'video', field: 'videoUrl' })
    expect(sendRouteFor('audio/mpeg')).toEqual({ route: 'audio', field: 'audioUrl' })
    expect(sendRouteFor('audio/wav')).toEqual({ route: 'document', field: 'documentUrl' })
    expect(sendRouteFor('')).toEqual({ route: 'document', field: 'documentUrl' })
  })
})
