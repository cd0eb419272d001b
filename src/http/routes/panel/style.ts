/** The panel's styles: system fonts, no assets, readable on a phone. */
export const panelStyle = `
:root { --fg: #1b1f23; --muted: #667085; --line: #e4e7ec; --accent: #128c7e; --bad: #b42318; --bg: #f8f9fb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 1rem; padding: .75rem 1.25rem; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.1rem; margin: 0; flex: 1; }
main { display: grid; grid-template-columns: minmax(260px, 320px) 1fr; gap: 1rem; padding: 1rem 1.25rem; }
main.single { display: block; max-width: 420px; margin: 3rem auto; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
h2 { font-size: 1rem; margin: 0 0 .75rem; }
h3 { font-size: .9rem; margin: 1rem 0 .5rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
label { display: block; margin: .4rem 0; color: var(--muted); font-size: .85rem; }
input, select, textarea { width: 100%; padding: .45rem .55rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; color: var(--fg); }
input[type=checkbox] { width: auto; }
button { padding: .4rem .8rem; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; font: inherit; cursor: pointer; }
button.plain { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .5; cursor: default; }
.row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-top: .5rem; }
ul.sessions { list-style: none; margin: 0; padding: 0; }
ul.sessions li { padding: .5rem; border-radius: 6px; cursor: pointer; display: flex; justify-content: space-between; gap: .5rem; }
ul.sessions li.selected, ul.sessions li:hover { background: #eef6f5; }
ul.webhooks { list-style: none; margin: 0 0 .5rem; padding: 0; }
ul.webhooks li { padding: .25rem 0; display: flex; justify-content: space-between; gap: .5rem; }
.status { align-self: flex-start; font-size: .75rem; padding: .1rem .45rem; border-radius: 999px; background: #eef0f3; color: var(--muted); white-space: nowrap; }
.status.connected, .status.ok, .status.delivered, .status.read, .status.played { background: #dcf5e8; color: #067647; }
.status.failed, .status.error, .status.logged_out, .status.expired { background: #fde8e7; color: var(--bad); }
.status.pending, .status.connecting, .status.sent { background: #fff4e0; color: #93500b; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: 0 0 .5rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.options { margin: 0; padding-left: 1rem; }
.qr { display: block; width: 260px; height: 260px; image-rendering: pixelated; margin: .5rem 0; }
.code { font: 600 1.4rem ui-monospace, monospace; letter-spacing: .15em; }
.error { color: var(--bad); min-height: 1.2em; }
.muted { color: var(--muted); }
table { width: 100%; border-collapse: collapse; font-size: .85rem; }
th, td { text-align: left; padding: .35rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.text { max-width: 22rem; overflow-wrap: anywhere; }
code { font-size: .8rem; overflow-wrap: anywhere; }
@media (max-width: 800px) { main { grid-template-columns: 1fr; } }
`
