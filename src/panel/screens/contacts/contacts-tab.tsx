/** The session's contacts: look one up (profile, on WhatsApp or not), block or unblock, the block list. */
import type { Session } from '../../sessions'
import { BlockedList } from './blocked-list'
import { useBlocking } from './blocking'
import { LookUp } from './look-up'

export function ContactsTab({ session }: { session: Session }) {
  const blocking = useBlocking(session.sessionId, session.status === 'connected')
  return (
    <>
      <LookUp session={session} blocking={blocking} />
      <BlockedList blocking={blocking} />
    </>
  )
}
