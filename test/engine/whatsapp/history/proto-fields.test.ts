import { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { streamFields, type StreamedField } from '../../../../src/engine/whatsapp/history/proto-fields'

const historySync = () =>
  proto.HistorySync.encode({
    syncType: proto.HistorySync.HistorySyncType.FULL,
    chunkOrder: 3,
    progress: 70,
    conversations: Array.from({ length: 5 }, (_, i) => ({
      id: `1555000000${i}@s.whatsapp.net`,
      name: `Contact ${i} ${'x'.repeat(i * 300)}`,
      unreadCount: i,
      messages: [
        { message: { key: { id: `M${i}`, remoteJid: `1555000000${i}@s.whatsapp.net` }, messageTimestamp: 1 } },
      ],
    })),
    pushnames: [{ id: '15550000001@s.whatsapp.net', pushname: 'Ana' }],
    threadIdUserSecret: Buffer.alloc(5000, 7),
  }).finish()

/** The bytes in pieces of the given sizes (cycled). */
async function* pieces(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!
    yield bytes.subarray(at, at + size)
    at += size
  }
}

const read = async (source: AsyncIterable<Uint8Array>, maxFieldBytes = 1_000_000) => {
  const fields: StreamedField[] = []
  for await (const field of streamFields(source, { wanted: new Set([1, 2, 6, 7]), maxFieldBytes })) fields.push(field)
  return fields
}

describe('streamFields', () => {
  it('reads the wanted top-level fields whatever the stream’s piece sizes, skipping the rest', async () => {
    const bytes = historySync()
    const whole = await read(pieces(bytes, [bytes.length]))
    for (const sizes of [[1], [2, 3], [7, 1, 64], [1000]]) expect(await read(pieces(bytes, sizes))).toEqual(whole)
    const names = whole
      .filter((f) => f.field === 2 && 'bytes' in f)
      .map((f) => proto.Conversation.decode((f as { bytes: Uint8Array }).bytes).id)
    expect(names).toEqual(proto.HistorySync.decode(bytes).conversations.map((c) => c.id))
    expect(whole.find((f) => f.field === 6)).toEqual({ field: 6, varint: 70 })
    expect(whole.some((f) => f.field === 9)).toBe(false)
  })

  it('skips a wanted field longer than the limit without keeping it, and says so', async () => {
    const fields = await read(pieces(historySync(), [13]), 1000)
    const oversized = fields.filter((f) => 'oversized' in f)
    expect(oversized.length).toBeGreaterThan(0)
    expect(fields.filter((f) => 'bytes' in f && f.field === 2).length).toBeLessThan(5)
  })

  it('refuses a message cut inside a field, a field numbered 0 and a group wire type', async () => {
    const bytes = historySync()
    await expect(read(pieces(bytes.subarray(0, bytes.length - 3), [50]))).rejects.toThrow(/ends inside a field/)
    await expect(read(pieces(Uint8Array.from([0x02, 0x00]), [1]))).rejects.toThrow(/numbered 0/)
    await expect(read(pieces(Uint8Array.from([(2 << 3) | 3]), [1]))).rejects.toThrow(/wire type 3/)
  })
})
