import { Hono } from 'hono'
import type { AppEnv } from '../../env'
import { panelScript, panelStyle } from './assets.generated'
import { panelPage } from './page'

/**
 * Only the panel's own script and style, calls to this origin, QR images as data URLs, and blob:
 * URLs for images and media: the inbox shows received files it fetched itself (the media route
 * needs the key in a header, so no src can name it). An injected string could neither run nor
 * load anything. No framing (clickjacking), no referrer.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'media-src blob:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const securityHeaders = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

/**
 * `GET /` sends a browser to the panel, by a Location relative to the URL asked for: mounted at
 * `/wa` the request is `/wa` and `./wa/panel` resolves to `/wa/panel`; behind a proxy that strips
 * a prefix the gateway sees `/`, and `./panel` resolves against the browser's `/prefix/`. An
 * absolute `/panel` would be right only at the root.
 */
const toPanel = (path: string) => {
  const last = path.slice(path.lastIndexOf('/') + 1)
  return last ? `./${last}/panel` : './panel'
}

/**
 * The web panel: a static page and its script, served before any credential check (they hold
 * nothing secret); everything it shows comes from the /v1 API with the key the user signs in with.
 */
export const panelRoutes = () =>
  new Hono<AppEnv>()
    .get('/', (c) => c.redirect(toPanel(new URL(c.req.url).pathname), 302))
    .get('/panel', (c) => c.html(panelPage, 200, { ...securityHeaders, 'cache-control': 'no-cache' }))
    .get('/panel/app.js', (c) =>
      c.body(panelScript, 200, {
        ...securityHeaders,
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-cache',
      }),
    )
    .get('/panel/app.css', (c) =>
      c.body(panelStyle, 200, {
        ...securityHeaders,
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'no-cache',
      }),
    )
