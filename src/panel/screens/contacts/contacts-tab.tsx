import type { Session } from '../../sessions'

// Placeholder until this tab lands.
export const ContactsTab = ({ session }: { session: Session }) => (
  <section id="ContactsTab">{session.sessionName}</section>
)
