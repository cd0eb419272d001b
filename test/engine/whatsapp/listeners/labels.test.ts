import { describe, expect, it } from 'vitest'
import { toLabelAssociation, toLabelEdit } from '../../../../src/engine/whatsapp/listeners/labels'
import { chatKeyOfJid } from '../../../../src/services/labels/store'

/** Baileys' labels.edit and labels.association as label changes, and the chat key they are kept under. */
describe('label mappers', () => {
  it('reads an edit as the label, a deleted one as a deletion, and leaves out one without an id', () => {
    expect(toLabelEdit({ id: '3', name: 'Paid', color: 5, deleted: false })).toEqual({
      kind: 'edited',
      label: { id: '3', name: 'Paid', color: 5 },
    })
    expect(toLabelEdit({ id: '1', name: 'New customer', color: 0, deleted: false, predefinedId: '1' })).toEqual({
      kind: 'edited',
      label: { id: '1', name: 'New customer', color: 0, predefinedId: '1' },
    })
    expect(toLabelEdit({ id: '3', name: '', color: 0, deleted: true })).toEqual({ kind: 'deleted', labelId: '3' })
    // A patch may leave out name or colour: an empty name, colour 0
    expect(toLabelEdit({ id: '4', deleted: false } as never)).toEqual({
      kind: 'edited',
      label: { id: '4', name: '', color: 0 },
    })
    expect(toLabelEdit({ id: '', name: 'x', color: 1, deleted: false })).toBeUndefined()
  })

  it('reads chat and message associations both ways, and leaves out incomplete ones', () => {
    expect(
      toLabelAssociation('add', { type: 'label_jid', chatId: '1555@s.whatsapp.net', labelId: '2' } as never),
    ).toEqual({ kind: 'chat', labelId: '2', chatJid: '1555@s.whatsapp.net', labeled: true })
    expect(
      toLabelAssociation('remove', {
        type: 'label_message',
        chatId: '123-456@g.us',
        messageId: 'ABC',
        labelId: '2',
      } as never),
    ).toEqual({ kind: 'message', labelId: '2', chatJid: '123-456@g.us', messageId: 'ABC', labeled: false })
    expect(
      toLabelAssociation('add', { type: 'label_message', chatId: '1555@s.whatsapp.net', labelId: '2' } as never),
    ).toBe(undefined)
    expect(toLabelAssociation('add', { type: 'label_jid', chatId: '', labelId: '2' } as never)).toBeUndefined()
  })

  it('keys a chat as the chat list does: digits, a LID, or a group', () => {
    expect(chatKeyOfJid('15551230001@s.whatsapp.net')).toBe('15551230001')
    expect(chatKeyOfJid('15551230001:3@s.whatsapp.net')).toBe('15551230001')
    expect(chatKeyOfJid('987654321@lid')).toBe('987654321@lid')
    expect(chatKeyOfJid('123-456@g.us')).toBe('123-456@g.us')
  })
})
