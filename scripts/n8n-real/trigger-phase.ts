/**
 * The trigger in the real n8n (scripts/n8n-real-run.ts, second part): docs/n8n.md's auto-reply
 * example (WA Session Gateway Trigger → Send Text) imported and published, then `n8n start` serving it.
 * n8n activates it on start: the trigger must add its webhook to the gateway; a contact's
 * message must come back as the reply; a forged delivery to n8n's webhook URL must be refused;
 * deactivating the workflow through n8n's REST API must remove the webhook. With a screenshot
 * path, the editor showing the workflow is captured with Chromium (docs/images/n8n-editor.png).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { launchChromium } from '../../test/support/browser'
import { pollUntil } from '../../test/support/poll'
import type { SimulatedGateway } from '../../test/support/simulated-gateway'

export interface TriggerPhase {
  t: SimulatedGateway
  sessionId: string
  /** The session's account and a contact of the simulator who writes to it. */
  account: string
  contact: string
  work: string
  node24: string
  n8nBin: string
  env: Record<string, string>
  n8n: (...args: string[]) => Promise<string>
  step: (what: string) => void
  screenshot?: string
}

const WORKFLOW_ID = 'waAutoReply1'
const EXAMPLE = join(import.meta.dirname, '../../integrations/n8n/examples/auto-reply.workflow.json')
const OWNER = { email: 'owner@n8n-real-run.invalid', firstName: 'Real', lastName: 'Run', password: 'Real-run-0wner!' }
const textOf = (m: {
  message: { conversation?: string | null; extendedTextMessage?: { text?: string | null } | null }
}) => m.message.conversation ?? m.message.extendedTextMessage?.text

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

export async function runTriggerPhase(p: TriggerPhase): Promise<void> {
  // docs/n8n.md's example, as a user imports it: the session and the credential filled in.
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8'))
  for (const node of example.nodes) {
    node.credentials = { waSessionGatewayApi: { id: 'gw1', name: 'Gateway' } }
    if (node.parameters.sessionId === 'REPLACE') node.parameters.sessionId = p.sessionId
  }
  writeFileSync(join(p.work, 'auto-reply.json'), JSON.stringify({ ...example, id: WORKFLOW_ID, active: false }))
  p.step('n8n import:workflow + publish:workflow (integrations/n8n/examples/auto-reply.workflow.json)')
  await p.n8n('import:workflow', `--input=${join(p.work, 'auto-reply.json')}`)
  await p.n8n('publish:workflow', `--id=${WORKFLOW_ID}`)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const log = join(p.work, 'n8n-start.log')
  p.step(`n8n start on ${base} (its log: ${log})`)
  const out = openSync(log, 'a')
  const n8n: ChildProcess = spawn(p.node24, [p.n8nBin, 'start'], {
    cwd: p.work,
    env: {
      ...process.env,
      ...p.env,
      N8N_PORT: String(port),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_HOST: '127.0.0.1',
      WEBHOOK_URL: `${base}/`,
      N8N_SECURE_COOKIE: 'false',
    },
    stdio: ['ignore', out, out],
  })
  const exited = new Promise((resolve) => n8n.once('exit', resolve))
  try {
    await pollUntil(
      () =>
        fetch(`${base}/healthz/readiness`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      { timeoutMs: 180_000, intervalMs: 500, what: 'n8n to be ready' },
    )
    const webhooks = () =>
      p.t
        .get(`/v1/session/${p.sessionId}/webhooks`)
        .then((r) => r.body.webhooks as { webhookId: string; url: string; description: string | null }[])
    const [added] = await pollUntil(webhooks, (list) => list.some((w) => w.url.startsWith(base)), {
      timeoutMs: 60_000,
      what: 'the trigger to add its webhook on activation',
    })
    p.step(`activation added webhook ${added!.webhookId} → ${added!.url} (${added!.description})`)

    const ping = `ping ${Date.now()}`
    await p.t.sim.contact(p.contact).send({ text: ping }, { to: p.account })
    const reply = await p.t.sim
      .contact(p.contact)
      .waitForMessage((m) => textOf(m) === `Thanks, we got your message: ${ping}`, 60_000)
    p.step(`a contact's "${ping}" ran the workflow: the contact received "${textOf(reply)}"`)

    const forged = await fetch(added!.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,Zm9yZ2Vk',
      },
      body: JSON.stringify({ type: 'message.received', data: { phone: p.contact, content: { text: 'forged' } } }),
    })
    if (forged.status !== 401) throw new Error(`a forged delivery was answered ${forged.status}, not 401`)
    p.step('a forged delivery to the webhook URL: 401')

    await fetch(`${base}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    })
    if (p.screenshot) await screenshot(base, p.screenshot)
    const login = await fetch(`${base}/rest/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': 'n8n-real-run' },
      body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
    })
    const cookie = login.headers.get('set-cookie')?.split(';')[0]
    if (!login.ok || !cookie) throw new Error(`n8n login answered ${login.status}`)
    const deactivated = await fetch(`${base}/rest/workflows/${WORKFLOW_ID}/deactivate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': 'n8n-real-run', cookie },
      body: '{}',
    })
    if (!deactivated.ok) throw new Error(`deactivate answered ${deactivated.status}: ${await deactivated.text()}`)
    await pollUntil(webhooks, (list) => !list.some((w) => w.webhookId === added!.webhookId), {
      timeoutMs: 30_000,
      what: 'deactivation to remove the webhook',
    })
    p.step('deactivating the workflow in n8n removed the webhook from the gateway')
  } finally {
    n8n.kill('SIGTERM')
    await exited
  }
}

/** n8n's editor with the workflow open, signed in as its owner: docs/images/n8n-editor.png. */
async function screenshot(base: string, path: string) {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    // Loopback only, whatever the editor would load from elsewhere.
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    )
    await page.goto(`${base}/signin`)
    await page.locator('input[type=email], input[name=emailOrLdapLoginId], input[name=email]').first().fill(OWNER.email)
    await page.locator('input[type=password]').first().fill(OWNER.password)
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 })
    await page.goto(`${base}/workflow/${WORKFLOW_ID}`)
    await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 })
    // n8n's "Production Checklist" popover covers the canvas on a first visit.
    const checklist = page.getByText('Production Checklist')
    if (
      await checklist.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await page.keyboard.press('Escape')
      if (await checklist.isVisible()) await page.mouse.click(1000, 560)
    }
    await page.waitForTimeout(1500)
    await page.screenshot({ path })
  } finally {
    await browser.close()
  }
}
