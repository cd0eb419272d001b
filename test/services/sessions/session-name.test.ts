import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, WEBHOOK, type SimulatedGateway } from '../../support/simulated-gateway'

describe('session names', () => {
  let t: SimulatedGateway
  /** Sends sessionName as raw JSON text, so escapes like \ud800 reach JSON.parse as written. */
  const connectRaw = async (sessionNameJson: string) => {
    const response = await t.request('/v1/session/connect', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"sessionName":${sessionNameJson},"webhookUrl":"${WEBHOOK}"}`,
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const storedNames = () =>
    queryFile<{ name: string }>(t.databasePath, 'SELECT name FROM sessions ORDER BY created_at').map((r) => r.name)

  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid' }) // several pairings at once: above the free plan's session cap
  })
  afterAll(() => t.close())

  it('stores names NFC-normalised and trimmed, so café and cafe + U+0301 are one name', async () => {
    const first = await t.connect({ sessionName: '  cafe\u0301 ' })
    expect(first.status).toBe(200)
    expect(storedNames()).toEqual(['caf\u00e9'])
    const second = await t.connect({ sessionName: 'caf\u00e9' })
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ error: 'session_name_taken', details: { sessionId: first.body.sessionId } })
  })

  it('applies the same rule when renaming', async () => {
    const other = await t.connect({ sessionName: 'bistro' })
    expect(other.status).toBe(200)
    const rename = await t.request(`/v1/session/update/${other.body.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionName: ' caf\u00e9' }),
    })
    expect(rename.status).toBe(409)
    expect(((await rename.json()) as any).error).toBe('session_name_taken')
  })

  it.each([
    ['an ANSI escape', JSON.stringify('\u001b[31mred')],
    ['NUL', JSON.stringify('a\u0000b')],
    ['a C1 control (NEL)', JSON.stringify('a\u0085b')],
    ['DEL', JSON.stringify('a\u007fb')],
    ['a newline', JSON.stringify('two\nlines')],
    ['a lone high surrogate', '"a\\ud800b"'],
    ['a lone low surrogate', '"\\udc00"'],
    ['a right-to-left override', JSON.stringify('invoice\u202efdp.exe')],
    ['only zero-width characters', JSON.stringify('\u200b\u200d\ufeff\u2060')],
    ['only a Hangul filler', JSON.stringify('\u3164')],
    ['only spaces', JSON.stringify('   ')],
    ['101 characters', JSON.stringify('x'.repeat(101))],
    ['101 emoji', JSON.stringify('😀'.repeat(101))],
  ])('refuses a name with %s, naming the field', async (_, json) => {
    const { status, body } = await connectRaw(json)
    expect(status).toBe(400)
    expect(body.details.fields.map((f: any) => f.path)).toContain('sessionName')
  })

  // zod 4 already counts code points; this guards that the new rules keep it so.
  it('counts characters, not UTF-16 units, and keeps emoji sequences', async () => {
    expect((await t.connect({ sessionName: '😀'.repeat(100) })).status).toBe(200)
    expect((await t.connect({ sessionName: '👩‍💻 team' })).status).toBe(200)
    expect(storedNames()).toContain('👩‍💻 team')
  })
})
