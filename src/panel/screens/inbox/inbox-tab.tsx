import type { Session } from '../../sessions'

// Placeholder until this tab lands.
export const InboxTab = ({ session, chatId }: { session: Session; chatId: string | null }) => (
  <section id="InboxTab">
    {session.sessionName}
    {chatId}
  </section>
)
