/**
 * The account's block list (GET /v1/contact/blocked) and the changes to it (POST
 * /v1/contact/{phone}/block · /unblock), shared by the profile shown and the list: both read the
 * list again after a change, so what they show is WhatsApp's list, not the panel's guess.
 */
import { useEffect, useState } from 'hono/jsx/dom'
import { api, path } from '../../api'
import { useAction } from '../../components/ui'
import { translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

export interface Party {
  phone: string | null
  lid: string | null
}

/** How a contact reads: the number where known, else the LID. */
export const who = (party: Party) => (party.phone ? `+${party.phone}` : (party.lid ?? ''))
/** What the block routes take for them: the number, else the LID. */
const address = (party: Party) => party.phone ?? party.lid ?? ''

export const isBlocked = (list: Party[], party: Party) =>
  list.some((b) => (b.phone !== null && b.phone === party.phone) || (b.lid !== null && b.lid === party.lid))

export interface Blocking {
  list: Party[] | null
  status: string | null
  error: string | null
  busy: boolean
  change(party: Party, action: 'block' | 'unblock'): void
}

export function useBlocking(sessionId: string, connected: boolean): Blocking {
  const [list, setList] = useState<Party[] | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [error, run, busy] = useAction()
  const load = async () =>
    setList((await api<{ blocked: Party[] }>('GET', path`/v1/contact/blocked?sessionId=${sessionId}`)).blocked)

  useEffect(() => {
    setList(null)
    void run(load)
  }, [sessionId, connected])

  const change = (party: Party, action: 'block' | 'unblock') => {
    const name = who(party)
    if (!confirm(t(action === 'block' ? 'confirmBlock' : 'confirmUnblock', { who: name }))) return
    setStatus(null)
    void run(async () => {
      await api('POST', path`/v1/contact/${address(party)}/${action}`, { sessionId })
      await load()
      setStatus(t(action === 'block' ? 'blocked' : 'unblocked', { who: name }))
    })
  }
  return { list, status, error, busy, change }
}
