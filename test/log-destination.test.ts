import { describe, expect, it } from 'vitest'
import { spawnProcess } from './support/process'

/** Numbers of the `line` log lines a child printed, in the order they arrived. */
const loggedNumbers = (output: string) =>
  output
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as { msg: string; n: number })
    .filter((line) => line.msg === 'line')
    .map((line) => line.n)

/** The child, and its exit code once it exited and its output was read to the end. */
function run(mode: string, count: number) {
  const child = spawnProcess(
    process.execPath,
    ['--import', 'tsx', 'test/support/log-writer.ts', mode, String(count)],
    {},
  )
  const closed = new Promise<number | null>((resolve) => child.child.on('close', resolve))
  return Object.assign(child, { closed })
}

/**
 * The gateway's stdout logs are written asynchronously, a batch at a time: none may be lost
 * when the process exits or crashes right after logging, and none may wait for an exit.
 */
describe('log destination', () => {
  it('writes every line, in order, when the process exits right after logging them', async () => {
    const child = run('exit', 5_500) // five full batches and one waiting
    expect(await child.closed).toBe(0)
    expect(loggedNumbers(child.output())).toEqual([...Array(5_500).keys()])
  })

  it('writes the lines logged just before an uncaught exception', async () => {
    const child = run('crash', 3)
    expect(await child.closed).toBe(1)
    expect(child.output()).toContain('crashed on purpose')
    expect(loggedNumbers(child.output())).toEqual([0, 1, 2])
  })

  it('writes lines while the process keeps running', async () => {
    const child = run('linger', 2)
    try {
      await child.waitForLine(/"n":1/, 10_000)
      expect(child.child.exitCode).toBeNull()
      expect(loggedNumbers(child.output())).toEqual([0, 1])
    } finally {
      await child.stop()
    }
  })
})
