import { describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../src/net/host-resolver'
import { isPrivateAddress, resolvedUrlProblem, urlProblem } from '../../src/net/url-guard'

const strict = { allowHttp: false, allowPrivateAddresses: false }

describe('urlProblem', () => {
  it.each([
    'https://localhost./',
    'https://foo.localhost./',
    'https://metadata.google.internal./',
    'https://printer.local/',
    'https://db.internal/',
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://169.254.169.254/',
    'https://0x7f.1/',
  ])('refuses %s', (url) => {
    expect(urlProblem(url, strict)).toMatch(/private, loopback or link-local/)
  })

  it('accepts public names and addresses', () => {
    expect(urlProblem('https://hooks.example.com/wa', strict)).toBeNull()
    expect(urlProblem('https://[2606:4700::1]/', strict)).toBeNull()
    expect(isPrivateAddress('8.8.8.8')).toBe(false)
  })
})

describe('resolvedUrlProblem', () => {
  const resolverFor = (address: string) => vi.fn<HostResolver>(async () => [{ address, family: 4 }])

  it('refuses a name whose DNS answer is private, without connecting anywhere', async () => {
    const resolver = resolverFor('10.0.0.8')
    expect(await resolvedUrlProblem('https://hooks.example.test/x', strict, resolver)).toMatch(/resolves to a private/)
    expect(resolver).toHaveBeenCalledWith('hooks.example.test')
  })

  it('accepts a name with public answers, and keeps the literal checks first', async () => {
    expect(await resolvedUrlProblem('https://hooks.example.test/x', strict, resolverFor('93.184.216.34'))).toBeNull()
    const resolver = resolverFor('93.184.216.34')
    expect(await resolvedUrlProblem('http://hooks.example.test/x', strict, resolver)).toMatch(/^must use https \(http:\/\/ only when the operator sets WEBHOOK_ALLOW_HTTP=true/)
    expect(resolver).not.toHaveBeenCalled()
  })

  it('lets a name that does not resolve now through (delivery checks again)', async () => {
    const failing = vi.fn<HostResolver>(async () => Promise.reject(new Error('ENOTFOUND')))
    expect(await resolvedUrlProblem('https://nowhere.example.test/', strict, failing)).toBeNull()
    expect(failing).toHaveBeenCalledWith('nowhere.example.test')
  })
})
