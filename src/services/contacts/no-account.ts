import { countryCodeHint, type PersonAddress } from '../../schemas/phone'

/** "… has no WhatsApp account", with the country-code hint when the number looks written wrong. */
export function noAccount(person: PersonAddress): string {
  const hint = person.kind === 'phone' ? countryCodeHint(person) : ''
  return `${person.input} has no WhatsApp account${hint ? `; ${hint}` : ''}`
}
