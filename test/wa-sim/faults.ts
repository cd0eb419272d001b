// Server-side failures a test can inject per account, each mapping to a Baileys DisconnectReason.
import type { Account } from './account'
import { SimulatorError } from './errors'
import type { SimState } from './state'

export const FAULT_KINDS = [
  'drop',
  'conflict',
  'logout',
  'restart',
  'refuse-login',
  'unresponsive',
  'restrict-new-chats',
  'unreachable',
  'phone-offline',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export const isFaultKind = (value: string): value is FaultKind => (FAULT_KINDS as readonly string[]).includes(value)

export const injectFault = (state: SimState, account: Account, kind: FaultKind): void => {
  const connection = state.liveConnectionOf(account)
  switch (kind) {
    case 'refuse-login': // next logins get <failure reason=401>
      account.refuseLogin = true
      return
    case 'unresponsive': // iqs and messages are swallowed until clearFaults(): queries time out, sends get no ack
      account.unresponsive = true
      return
    case 'unreachable': // the network is gone for this account: the connection drops, and so does every login until cleared
      account.unreachable = true
      state.liveConnectionOf(account)?.drop()
      return
    case 'phone-offline': // the account's phone is off: media retry requests from its devices go unanswered
      account.phoneOffline = true
      return
    case 'restrict-new-chats': // a restricted account: 1:1 messages that would open a new chat are refused (ack error 463)
      account.restrictNewChats = true
      return
  }
  if (!connection) throw new SimulatorError('account_offline', `account ${account.phone} has no open connection`, 409)
  switch (kind) {
    case 'drop': // socket closed without a word -> connectionClosed (428)
      connection.drop()
      return
    case 'conflict': // another client took over -> connectionReplaced (440)
      connection.sendNode({
        tag: 'stream:error',
        attrs: {},
        content: [{ tag: 'conflict', attrs: { type: 'replaced' } }],
      })
      return
    case 'logout': // the phone removed this device -> loggedOut (401); its credentials stop working
      account.linked = false
      connection.sendNode({
        tag: 'stream:error',
        attrs: { code: '401' },
        content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }],
      })
      return
    case 'restart': // restartRequired (515)
      connection.sendNode({ tag: 'stream:error', attrs: { code: '515' } })
      return
  }
}

export const clearFaults = (account: Account): void => {
  account.refuseLogin = false
  account.unresponsive = false
  account.restrictNewChats = false
  account.unreachable = false
  account.phoneOffline = false
}
