import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys'
import { commandContext, printTable } from './context'
import { UsageError } from './usage'

export async function keyCommand(args: string[]): Promise<void> {
  const [verb, target] = args
  const ctx = await commandContext()
  if (verb === 'create') {
    if (!target) throw new UsageError('key create needs a workspace name or id')
    const issued = createApiKey(ctx, { workspace: target })
    // Only the key on stdout, so `KEY=$(npm run -s cli -- key create x)` works; it is never shown again.
    console.log(issued.key)
    console.error(
      `created ${issued.id} (${issued.prefix}…) for workspace ${target}; store the key now, it is shown once`,
    )
    return
  }
  if (verb === 'list') {
    printTable(listApiKeys(ctx, { workspace: target }))
    return
  }
  if (verb === 'revoke') {
    if (!target) throw new UsageError('key revoke needs a key id (see key list)')
    revokeApiKey(ctx, { id: target })
    console.log(`revoked ${target}`)
    return
  }
  throw new UsageError('key takes: create <workspace> | list [<workspace>] | revoke <id>')
}
