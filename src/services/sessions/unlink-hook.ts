import type { DbOrTx } from '../../webhooks/outbox'

/**
 * What a part of the gateway keeps per linked account and drops once the session is unlinked
 * (or never linked): registered where the context is assembled (createGateway), run in the
 * transaction of the status change.
 */
export type UnlinkHook = (tx: Pick<DbOrTx, 'delete'>, sessionId: string) => void
