/**
 * Child process for the console capture test: the gateway's logger on stdout with the console
 * routed into it (as the serve command does), then what dependencies print: console calls with
 * a key in them, and a process warning (which Node and Bun print from a listener of their own).
 */
import { routeConsoleToLogger } from '../../src/console-capture'
import { createLogger } from '../../src/logger'

routeConsoleToLogger(createLogger('debug'))
const privKey = Buffer.from(process.env.PROBE_KEY ?? '', 'hex') // the test's, so it knows what to look for
console.info('Closing session:', { currentRatchet: { ephemeralKeyPair: { privKey } } })
console.error('Session error: Bad MAC', new Error('Bad MAC'))
process.emitWarning('an old API', 'DeprecationWarning')
setTimeout(() => process.exit(0), 50)
