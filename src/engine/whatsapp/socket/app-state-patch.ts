import { EngineError } from '../port'

/**
 * Runs one app-state patch upload (Baileys' appPatch: chatModify, updateProfileName): the patch's
 * encryption, MACs and versioning are Baileys' to keep. rc14's app-state queries resolve
 * `undefined` when WhatsApp stays silent and Baileys carries on as if answered (its resync even
 * asks again without end), so silence is told by the clock: a change that took the query timeout
 * had a query go unanswered, and one still running at twice that is given up. Either way WhatsApp
 * may yet apply it, and the caller is told so (`what`: "the name change").
 */
export async function appStatePatch(patch: () => Promise<void>, queryTimeoutMs: number, what: string): Promise<void> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new EngineError('timeout', `WhatsApp did not confirm ${what} in time`)),
      2 * queryTimeoutMs,
    )
  })
  const change = patch()
  change.catch(() => {}) // still settles after a deadline: nobody is left to hear it
  try {
    await Promise.race([change, deadline])
  } finally {
    clearTimeout(timer)
  }
  if (Date.now() - started >= queryTimeoutMs)
    throw new EngineError('timeout', `WhatsApp did not confirm ${what} in time`)
}
