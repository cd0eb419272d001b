/**
 * The panel's one page: a shell the client script fills. Relative URLs keep it working when the
 * gateway is mounted under a prefix (e.g. /wa/panel); nothing is inline, so the CSP forbids all
 * inline script and style.
 */
export const panelPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>WhatsApp gateway — panel</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="./panel/app.css">
  <script src="./panel/app.js" defer></script>
</head>
<body>
  <header>
    <h1>WhatsApp gateway</h1>
    <span id="who"></span>
    <button id="sign-out" hidden>Sign out</button>
  </header>
  <main id="main"><p>Loading…</p></main>
</body>
</html>`
