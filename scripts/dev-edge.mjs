#!/usr/bin/env node
// npm run dev:edge -- --port N [other wrangler dev flags]
// Runs `wrangler dev` (local workerd) on wrangler.toml, or on wrangler.toml.example when the
// operator has not copied it yet, passing the gateway's variables from this environment as vars.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const PASSED = [
  'WA_SIMULATOR',
  'JWT_SECRET',
  'DEPLOYMENT_API_KEY',
  'WEBHOOK_ALLOW_HTTP',
  'ALLOW_PRIVATE_ADDRESSES',
  'LOG_LEVEL',
  'EDGE_TEST_HOOKS',
  'PUBLIC_URL',
  'MEDIA_STORE',
  'MEDIA_S3_BUCKET',
  'MEDIA_S3_ENDPOINT',
  'MEDIA_S3_REGION',
  'MEDIA_S3_ACCESS_KEY_ID',
  'MEDIA_S3_SECRET_ACCESS_KEY',
  'MEDIA_S3_PREFIX',
  'MEDIA_DOWNLOAD',
  'MEDIA_RETRY_TIMEOUT_MS',
  'MEDIA_URL_TTL',
]

let config = join(root, 'wrangler.toml')
if (!existsSync(config)) {
  // Beside the example, so its relative paths (main, aliases) still resolve; gitignored.
  config = join(root, '.wrangler.example.toml')
  copyFileSync(join(root, 'wrangler.toml.example'), config)
}

const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' }
// The simulator's media host has a self-signed CA; workerd's fetch trusts NODE_EXTRA_CA_CERTS
// (Baileys' https.Agent `ca` is ignored there). Real WhatsApp has public certificates.
if (process.env.WA_SIMULATOR) {
  const simulator = await fetch(new URL('/config', process.env.WA_SIMULATOR))
    .then((r) => r.json())
    .catch(() => undefined)
  if (simulator?.mediaCaPem) {
    const file = join(mkdtempSync(join(tmpdir(), 'wa-edge-')), 'sim-media-ca.pem')
    writeFileSync(file, simulator.mediaCaPem)
    env.NODE_EXTRA_CA_CERTS = file
  }
}

const vars = PASSED.filter((name) => process.env[name]).flatMap((name) => ['--var', `${name}:${process.env[name]}`])
const args = [
  'wrangler',
  'dev',
  '-c',
  config,
  '--ip',
  '127.0.0.1',
  '--show-interactive-dev-session=false',
  ...vars,
  ...process.argv.slice(2),
]
const child = spawn('npx', args, { cwd: root, env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
