/**
 * The chat list with many records (`--only chat-list`): GET /v1/chat/all against GET
 * /v1/message/all (one page each, in process) on a session with 100,000 records in 1,000 chats,
 * and the list's query plan (it must read messages_chat_idx, never the table).
 */
import { join } from 'node:path'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { messages } from '../../src/db/schema'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { chatPageQuery } from '../../src/services/chats/list'
import { tempDir } from '../support/temp-dir'
import { seedWorkspace } from './seed'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export async function benchChatList({ records = 100_000, chats = 1_000, rounds = 21 } = {}) {
  const dir = tempDir('bench-chat-list-')
  const database = await openDatabase(join(dir.path, 'bench.db'), { checkpointInBackground: true })
  const { gateway } = assembleGateway({ database, logger: silentLogger() })
  try {
    const { key } = seedWorkspace(database, 1)
    const sessionId = 'ses_bench0'
    const base = Date.now() - records * 1000
    database.transaction((tx) => {
      for (let i = 0; i < records; i += 1000) {
        tx.insert(messages)
          .values(
            Array.from({ length: 1000 }, (_, j) => {
              const n = i + j
              const c = n % chats
              const group = c % 10 === 0
              const phone = group ? `12036300000${c}@g.us` : `1555${String(c).padStart(7, '0')}`
              return {
                sessionId,
                id: `BENCH${n}`,
                chatJid: group ? phone : `${phone}@s.whatsapp.net`,
                phone,
                lid: group ? `9${n % 50}` : `8${c}`,
                direction: n % 3 ? ('inbound' as const) : ('outbound' as const),
                type: 'text',
                status: n % 3 ? (n % 7 ? ('read' as const) : ('received' as const)) : ('sent' as const),
                content: { text: `message ${n}` },
                createdAt: new Date(base + n * 1000),
                updatedAt: new Date(base + n * 1000),
              }
            }),
          )
          .run()
      }
    })
    const time = async (path: string) => {
      const ms: number[] = []
      for (let r = 0; r <= rounds; r++) {
        const started = performance.now()
        const response = await gateway.app.request(path, { headers: { authorization: `Bearer ${key}` } })
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`)
        await response.arrayBuffer()
        // Round 0 warms up.
        if (r > 0) ms.push(performance.now() - started)
      }
      return median(ms)
    }
    const { sql: text, params } = new SQLiteSyncDialect().sqlToQuery(chatPageQuery(sessionId, 51, undefined))
    const plan = (database.$client.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map(
      (row) => row.detail,
    )
    return {
      chatListMs: await time(`/v1/chat/all?sessionId=${sessionId}&limit=50`),
      messageListMs: await time(`/v1/message/all?sessionId=${sessionId}&limit=50`),
      plan,
    }
  } finally {
    await gateway.stop()
    closeDatabase(database)
    dir.cleanup()
  }
}
