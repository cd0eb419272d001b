/** A session's first tab: how to link it, its webhook settings, a test send and its newest messages. */
import type { Session } from '../../sessions'
import { Messages } from './messages'
import { Pairing } from './pairing'
import { SendTest } from './send-test'
import { Settings } from './settings'

export const Overview = ({ session }: { session: Session }) => (
  <>
    <Pairing session={session} />
    <Settings session={session} />
    <SendTest session={session} />
    <Messages session={session} />
  </>
)
