/** The panel's entry point: theme and language first (no flash of the wrong ones), then the app. */
import { render } from 'hono/jsx/dom'
import { App } from './app'
import { chooseLanguage, preferredLanguage } from './i18n'
import { applySavedTheme } from './theme'

applySavedTheme()
chooseLanguage(preferredLanguage(), { remember: false })
const root = document.getElementById('root')
if (root) render(<App />, root)
