import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/process'

/**
 * A gateway that serves requests but has no live session must not load Baileys (with
 * libsignal and protobufjs, most of its memory and start time) or the media tools.
 */
describe('lazy loading', () => {
  it('serves /health and authed routes without loading Baileys, ffmpeg or file-type', () => {
    const probe = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/lazy-load-probe.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
    expect(probe.status, probe.stderr).toBe(0)
    const report = JSON.parse(probe.stdout.trim().split('\n').pop()!) as Record<string, unknown>
    expect(report).toMatchObject({
      statuses: [200, 200, 200],
      baileys: false,
      libsignal: false,
      ffmpeg: false,
      fileType: false,
    })
    expect(report.modules).toBeGreaterThan(50) // the hooks did see the gateway's own imports
  })
})
