import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'

describe('received-file settings', () => {
  it('defaults: lazy, a local store beside the database, 1 h links on http://localhost:PORT', () => {
    const config = loadConfig({ PORT: '8080' })
    expect(config.inboundMedia).toEqual({
      store: { kind: 'local', dir: undefined },
      maxStoreBytes: 2 * 1024 ** 3,
      download: 'lazy',
      urlTtlSeconds: 3600,
      retryTimeoutMs: 20_000,
    })
    expect(config.publicUrl).toBe('http://localhost:8080')
    expect(loadConfig({ PUBLIC_URL: 'https://wa.example.com/gw///' }).publicUrl).toBe('https://wa.example.com/gw')
  })

  it('MEDIA_STORE=s3 names each missing variable; the store cap is at least MEDIA_MAX_BYTES; bad values stop the start', () => {
    expect(() => loadConfig({ MEDIA_STORE: 's3', MEDIA_S3_BUCKET: 'b' })).toThrow(
      /MEDIA_S3_ENDPOINT: is required with MEDIA_STORE=s3\n {2}MEDIA_S3_ACCESS_KEY_ID: .*\n {2}MEDIA_S3_SECRET_ACCESS_KEY: /,
    )
    const s3 = loadConfig({
      MEDIA_STORE: 's3',
      MEDIA_S3_BUCKET: 'b',
      MEDIA_S3_ENDPOINT: 'https://s3.example.com',
      MEDIA_S3_ACCESS_KEY_ID: 'id',
      MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
    })
    expect(s3.inboundMedia.store).toMatchObject({
      kind: 's3',
      region: 'us-east-1',
      prefix: 'media/',
      timeoutMs: 15_000,
    })
    expect(() => loadConfig({ MEDIA_S3_TIMEOUT_MS: '0' })).toThrow(/MEDIA_S3_TIMEOUT_MS/)
    expect(() => loadConfig({ MEDIA_STORE_MAX_BYTES: '1000' })).toThrow(
      /MEDIA_STORE_MAX_BYTES: must be at least MEDIA_MAX_BYTES/,
    )
    expect(() => loadConfig({ MEDIA_DOWNLOAD: 'sometimes' })).toThrow(/MEDIA_DOWNLOAD/)
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/)
    expect(() => loadConfig({ MEDIA_URL_TTL: '0' })).toThrow(/MEDIA_URL_TTL/)
  })
})
