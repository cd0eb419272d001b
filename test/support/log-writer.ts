/**
 * Child process for the log destination tests: the gateway's logger on its default stdout
 * destination. argv[2] says how the process ends: `exit` (process.exit right after logging),
 * `crash` (an uncaught exception), `linger` (stays up, so lines must come out on their own).
 */
import { createLogger } from '../../src/logger'

const logger = createLogger('info')
const count = Number(process.argv[3] ?? 3)
for (let i = 0; i < count; i++) logger.info({ n: i }, 'line')

switch (process.argv[2]) {
  case 'exit':
    process.exit(0)
    break
  case 'crash':
    throw new Error('crashed on purpose')
  case 'linger':
    setTimeout(() => process.exit(0), 30_000)
    break
}
