// `node --import ./test/support/module-log.mjs …` with MODULE_LOG=<file>: every module URL the
// process resolved (ESM imports, as load-hooks.mjs reports them), one a line, written at exit.
import { writeFileSync } from 'node:fs'
import { register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'

const loaded = []
const { port1, port2 } = new MessageChannel()
port1.on('message', (url) => loaded.push(url))
port1.unref()
register('./load-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] })
process.on('exit', () => writeFileSync(process.env.MODULE_LOG, loaded.join('\n')))
