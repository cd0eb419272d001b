/**
 * The panel's languages: English, and Brazilian Portuguese and Spanish (the languages most users
 * of WhatsApp gateways write in). Each screen keeps its texts in a `texts.ts` beside it: English is
 * the source, and the type makes every other language carry every key (a test checks the same at
 * run time, placeholders included). Chosen from the browser unless the user picked one.
 */
import { createStore } from '../store'

export const LANGUAGES = { en: 'English', 'pt-BR': 'Português (Brasil)', es: 'Español' } as const
export type Language = keyof typeof LANGUAGES

type Source = Record<string, string>
export type Texts<E extends Source> = { en: E } & { [L in Exclude<Language, 'en'>]: { [K in keyof E]: string } }

/** Declares a screen's texts; the `satisfies`-like signature makes a missing translation a type error. */
export const defineTexts = <E extends Source>(texts: Texts<E>): Texts<E> => texts

const STORAGE = 'wa-gateway.language'

export function preferredLanguage(choices: readonly string[] = navigator.languages): Language {
  const saved = localStorage.getItem(STORAGE)
  if (saved && saved in LANGUAGES) return saved as Language
  for (const choice of choices) {
    const lower = choice.toLowerCase()
    if (lower.startsWith('pt')) return 'pt-BR'
    if (lower.startsWith('es')) return 'es'
    if (lower.startsWith('en')) return 'en'
  }
  return 'en'
}

export const language = createStore<Language>('en')

export function chooseLanguage(next: Language, { remember = true } = {}) {
  if (remember) localStorage.setItem(STORAGE, next)
  document.documentElement.lang = next
  language.set(next)
}

export type Translate<E extends Source> = (key: keyof E & string, vars?: Record<string, string | number>) => string

/** `t('key', {n: 3})`: the text in the current language, `{n}` replaced. */
export function translator<E extends Source>(texts: Texts<E>): Translate<E> {
  return (key, vars) => {
    const text = texts[language.get()][key] ?? texts.en[key]
    return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole)) : text
  }
}

/** Dates and times as the chosen language writes them. */
export const formatTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleTimeString(language.get(), { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : ''
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(language.get(), { dateStyle: 'short', timeStyle: 'medium' }) : ''
