/**
 * What send pacing costs a send when it is off: the step every send takes (src/services/messages/
 * send/send-turn.ts: read the session's pacing, ask whether its queue is busy) timed on its own, in
 * process, to set against one text send's time from the sends bench. Pacing on is not timed:
 * it waits on purpose.
 */
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { sessions } from '../../src/db/schema'
import type { SessionHandle } from '../../src/engine/whatsapp/port'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { takeTurn } from '../../src/services/messages/send/send-turn'
import { tempDir } from '../support/temp-dir'
import { seedWorkspace } from './seed'

/** Median over rounds of the mean ns per unpaced turn. */
export async function measurePacingOff({ calls = 200_000, rounds = 7 } = {}): Promise<{ nsPerSend: number }> {
  const dir = tempDir('bench-pacing-')
  const database = await openDatabase(join(dir.path, 'bench.db'), { checkpointInBackground: true })
  const { context, gateway } = assembleGateway({ database, logger: silentLogger() })
  try {
    seedWorkspace(database, 1)
    const session = database.select().from(sessions).get()!
    // Never called on the unpaced path: the turn answers the handle it was given.
    const handle = {} as SessionHandle
    const content = { kind: 'text' as const, text: 'bench' }
    const means: number[] = []
    for (let r = 0; r <= rounds; r++) {
      const started = process.hrtime.bigint()
      for (let i = 0; i < calls; i++) await takeTurn(context, session, handle, '15557770001@s.whatsapp.net', content)
      // Round 0 warms the JIT up.
      if (r > 0) means.push(Number(process.hrtime.bigint() - started) / calls)
    }
    return { nsPerSend: means.sort((a, b) => a - b)[Math.floor(means.length / 2)]! }
  } finally {
    await gateway.stop()
    closeDatabase(database)
    dir.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measurePacingOff())
