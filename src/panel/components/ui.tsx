/** Small pieces every screen uses: status badges, announced errors, scrolling tables, copy buttons. */
import type { Child } from 'hono/jsx'
import { useState } from 'hono/jsx/dom'
import { translator } from '../i18n'
import { texts } from './texts'

const t = translator(texts)

export const Badge = ({ status }: { status: string }) => <span class={`status ${status}`}>{status}</span>

/** An error line screen readers announce when it changes (role=alert is assertive). */
export const ErrorText = ({ id, message }: { id?: string; message: string | null }) => (
  <p class="error" id={id} role="alert">
    {message ?? ''}
  </p>
)

/** A polite status line (saved, sent, …). */
export const StatusText = ({ id, message }: { id?: string; message: string | null }) => (
  <p class="muted" id={id} role="status">
    {message ?? ''}
  </p>
)

/** A table that scrolls inside its own box on a narrow screen instead of widening the page. */
export const TableBox = ({ label, children }: { label: string; children: Child }) => (
  // tabindex: a box that scrolls must be reachable by keyboard to scroll it (axe: scrollable-region-focusable).
  <section class="table-box" aria-label={label} tabindex={0}>
    {children}
  </section>
)

export function CopyButton({ value, id }: { value: string; id?: string }) {
  const [done, setDone] = useState(false)
  return (
    <button
      type="button"
      class="plain small"
      id={id}
      onClick={() =>
        navigator.clipboard.writeText(value).then(
          () => setDone(true),
          () => setDone(false),
        )
      }
    >
      {done ? t('copied') : t('copy')}
    </button>
  )
}

/** Runs an async action and keeps its error message for the screen to show. */
export function useAction(): [string | null, (action: () => Promise<unknown>) => Promise<boolean>, boolean] {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<unknown>) => {
    setError(null)
    setBusy(true)
    try {
      await action()
      return true
    } catch (failure) {
      setError((failure as Error).message)
      return false
    } finally {
      setBusy(false)
    }
  }
  return [error, run, busy]
}
