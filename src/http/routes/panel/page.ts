import { panelVersion } from './assets.generated'

/**
 * The panel's one page: a shell the bundled script (src/panel) renders into. Relative URLs keep it
 * working when the gateway is mounted under a prefix (e.g. /wa/panel); nothing is inline, so the
 * CSP forbids all inline script and style. The version in the URLs changes with each build.
 */
export const panelPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>WhatsApp gateway — panel</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="./panel/app.css?v=${panelVersion}">
  <script src="./panel/app.js?v=${panelVersion}" defer></script>
</head>
<body>
  <div id="root"><p>Loading…</p></div>
  <noscript>The panel needs JavaScript.</noscript>
</body>
</html>`
