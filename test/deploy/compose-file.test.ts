import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { registerSchema, validate } from '@hyperjump/json-schema/draft-07'
import { BASIC } from '@hyperjump/json-schema/experimental'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadConfig } from '../../src/config'
import { repoRoot } from '../support/process'

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8')
const compose = parse(read('docker-compose.yml')) as any
const dockerfile = read('Dockerfile')
const caddyfile = read('deploy/docker/Caddyfile')

/**
 * docker-compose.yml and its Caddyfile, which no engine runs here (docs/docker.md "How it is
 * tested"): valid against the Compose Specification's schema (compose-spec.json, vendored from
 * compose-spec/compose-spec at 170098ba07d9), and in step with the Dockerfile and the gateway's
 * settings they rely on.
 */
describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', async () => {
    const schema = JSON.parse(read('test/deploy/compose-spec.json'))
    const id = 'https://compose-spec.invalid/compose-spec.json'
    // It names draft-07 by an https URL; the dialect's own identifier is http://…#.
    registerSchema({ ...schema, $schema: 'http://json-schema.org/draft-07/schema#', $id: id }, id)
    const result = await validate(id, compose, BASIC)
    expect(result.valid ? [] : result.errors).toEqual([])
  })

  it("mounts a named volume on the image's /data and publishes its port on loopback only", () => {
    expect(dockerfile).toContain('VOLUME ["/data"]')
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m)
    const gateway = compose.services.gateway
    expect(gateway.build).toBe('.')
    expect(gateway.volumes).toEqual(['gateway-data:/data'])
    expect(Object.keys(compose.volumes)).toContain('gateway-data')
    expect(gateway.ports).toEqual(['127.0.0.1:3000:3000'])
  })

  it("gives a stop more time than the gateway's own deadline (15 s, then it exits 1)", () => {
    expect(read('src/cli/serve.ts')).toContain('const STOP_DEADLINE_MS = 15_000')
    expect(Number.parseInt(compose.services.gateway.stop_grace_period, 10)).toBeGreaterThan(15)
  })

  it("puts Caddy behind a profile, in front of the gateway's service and port, idle upstreams dropped before the gateway drops them", () => {
    const caddy = compose.services.caddy
    expect(caddy.profiles).toEqual(['caddy'])
    expect(caddy.depends_on).toEqual({ gateway: { condition: 'service_healthy' } })
    expect(caddy.volumes).toContain('./deploy/docker/Caddyfile:/etc/caddy/Caddyfile:ro')
    expect(caddyfile).toMatch(/reverse_proxy gateway:3000 \{/)
    const keepalive = Number(/keepalive (\d+)s/.exec(caddyfile)![1]) * 1000
    expect(keepalive).toBeLessThan(loadConfig({}).keepAliveTimeoutMs)
  })
})
