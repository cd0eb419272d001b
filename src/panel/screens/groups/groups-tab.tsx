import type { Session } from '../../sessions'

// Placeholder until this tab lands.
export const GroupsTab = ({ session, groupId }: { session: Session; groupId: string | null }) => (
  <section id="GroupsTab">
    {session.sessionName}
    {groupId}
  </section>
)
