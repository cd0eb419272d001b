/** A session's webhooks beside its own webhookUrl, and the delivery log with retry and replay. */
import type { Session } from '../../sessions'
import { Deliveries } from './deliveries'
import { MoreWebhooks } from './more-webhooks'

export const WebhooksTab = ({ session }: { session: Session }) => (
  <>
    <MoreWebhooks session={session} />
    <Deliveries session={session} />
  </>
)
