/**
 * Someone in a chat as WhatsApp revealed them: a number (digits), a LID (digits), or both. The
 * API names a person by the number, else `<digits>@lid` (the one LID form).
 */
export interface Party {
  phone?: string | null
  lid?: string | null
}

/** Pure: the name the API shows for a party, or undefined when WhatsApp revealed neither form. */
export function partyName({ phone, lid }: Party): string | undefined {
  return phone || (lid ? `${lid}@lid` : undefined)
}

/** Pure: the forms a stored name may have for this party (a vote by LID alone, then by number). */
export function partyNames({ phone, lid }: Party): string[] {
  return [phone, lid ? `${lid}@lid` : undefined].filter((name): name is string => Boolean(name))
}
