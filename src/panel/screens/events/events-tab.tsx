import type { Session } from '../../sessions'

// Placeholder until this tab lands.
export const EventsTab = ({ session }: { session: Session }) => <section id="EventsTab">{session.sessionName}</section>
