import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../../src/net/host-resolver'
import { jsonBody, startTestGateway, type TestGateway } from '../../support/gateway'
import { createSessionRow } from '../../support/session-row'

/** Answers for made-up names; no test here resolves or contacts anything real. */
const answers: Record<string, string> = {
  'inside.hooks.test': '10.1.2.3',
  'metadata.hooks.test': '169.254.169.254',
  // Public-looking, for the check only: nothing in this file emits an event, and the URL is reset after.
  'public.hooks.test': '93.184.216.34',
}
const resolver = vi.fn<HostResolver>(async (host) => {
  const address = answers[host]
  if (!address) throw new Error(`ENOTFOUND ${host}`)
  return [{ address, family: 4 }]
})

/**
 * webhookUrl is checked when it is set (connect, update): scheme, literal addresses, local
 * names with or without the trailing dot, IPv4 inside IPv6, and what the name resolves to.
 * Update needs no WhatsApp connection, so a session row is enough.
 */
describe('webhookUrl guard when the URL is set', () => {
  let t: TestGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startTestGateway({ resolver })
    sessionId = createSessionRow(t, 'guarded')
  })
  afterAll(() => t.close())

  const put = async (webhookUrl: string) => {
    const response = await t.request(`/v1/session/update/${sessionId}`, { ...jsonBody({ webhookUrl }), method: 'PUT' })
    return { status: response.status, body: (await response.json()) as any }
  }

  it.each([
    'https://localhost./hook',
    'https://foo.localhost./hook',
    'https://metadata.google.internal./computeMetadata',
    'https://printer.local/hook',
    'https://db.internal/hook',
    'https://[::127.0.0.1]/hook',
    'https://[::7f00:1]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://127.1/hook',
    'https://0x7f.0.0.1/hook',
  ])('refuses %s', async (url) => {
    const { status, body } = await put(url)
    expect(status).toBe(400)
    expect(body.details.fields[0]).toMatchObject({
      path: 'webhookUrl',
      message: expect.stringMatching(/private|loopback|link-local/),
    })
  })

  it('refuses a name that resolves to a private or metadata address now', async () => {
    for (const host of ['inside.hooks.test', 'metadata.hooks.test']) {
      const { status, body } = await put(`https://${host}/hook`)
      expect(status, host).toBe(400)
      expect(body.details.fields[0].message).toMatch(/resolves to a private.*\(only when the operator sets ALLOW_PRIVATE_ADDRESSES=true/)
      expect(resolver).toHaveBeenCalledWith(host)
    }
  })

  it('accepts a public answer, and a name that does not resolve yet', async () => {
    expect((await put('https://public.hooks.test/hook')).status).toBe(200)
    expect((await put('https://hooks.invalid/hook')).status).toBe(200)
    expect((await put('https://hooks.invalid/hook')).body.webhookUrl).toBe('https://hooks.invalid/hook')
  })
})
