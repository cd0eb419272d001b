/** The event types as checkboxes (none ticked: every type), from the gateway's own list. */
import { webhookEventTypes } from '../../shared/event-types'

export function EventTypeChoices({
  id,
  legend,
  chosen,
}: {
  id: string
  legend: string
  chosen: readonly string[] | null
}) {
  return (
    <fieldset class="choices" id={id}>
      <legend>{legend}</legend>
      {webhookEventTypes.map((type) => (
        <label class="inline">
          <input type="checkbox" name="eventType" value={type} checked={chosen?.includes(type) ?? false} />
          <code>{type}</code>
        </label>
      ))}
    </fieldset>
  )
}

/** The ticked types of a form, or null when none is (every type). */
export const chosenEventTypes = (form: HTMLFormElement): string[] | null => {
  const types = new FormData(form).getAll('eventType').map(String)
  return types.length ? types : null
}
