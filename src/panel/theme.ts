/**
 * Light or dark: the system's choice (prefers-color-scheme, handled in the style sheet) unless the
 * user picks one, kept in localStorage and set as <html data-theme>.
 */
import { createStore } from './store'

export type Theme = 'light' | 'dark'
const STORAGE = 'wa-gateway.theme'

const systemTheme = (): Theme => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')

export const theme = createStore<Theme>('light')

export function applySavedTheme() {
  const saved = localStorage.getItem(STORAGE)
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved
  theme.set(saved === 'light' || saved === 'dark' ? saved : systemTheme())
}

export function toggleTheme() {
  const next: Theme = theme.get() === 'dark' ? 'light' : 'dark'
  localStorage.setItem(STORAGE, next)
  document.documentElement.dataset.theme = next
  theme.set(next)
}
