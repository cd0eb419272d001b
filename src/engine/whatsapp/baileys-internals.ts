/*
 * The one door to Baileys' internals: what rc14 does not export from its package entry but the
 * engine needs (the usync contact protocol, the group metadata reader). A Baileys upgrade that
 * moves them breaks here, in one place.
 */
export type { USyncQueryProtocol } from '@whiskeysockets/baileys/lib/Types/USync.js'
export { USyncContactProtocol } from '@whiskeysockets/baileys/lib/WAUSync/Protocols/USyncContactProtocol.js'
export { extractGroupMetadata } from '@whiskeysockets/baileys/lib/Socket/groups.js'
export {
  buildMergedTcTokenIndexWrite,
  resolveTcTokenJid,
} from '@whiskeysockets/baileys/lib/Utils/tc-token-utils.js'
