/**
 * The console's stylesheet and its one small script, served from the gateway (no CDN, no build step). The script
 * only improves what the server rendered: times in the viewer's zone, and the approval inbox reloaded when its
 * event stream reports a change (unless the operator is typing a reason). Pages work without it.
 */

/** The stylesheet: readable from phone to laptop widths, visible focus, no external fonts. */
export const CONSOLE_CSS = `
:root { --fg:#1c2230; --muted:#5b6475; --bg:#f6f7f9; --card:#fff; --line:#d9dde5; --accent:#1f5fbf;
  --ok:#1b7a3d; --warn:#a15c00; --bad:#b3261e; --mark:#ffe08a; color-scheme: light; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg);
  background:var(--bg); }
a { color:var(--accent); }
:focus-visible { outline:3px solid var(--accent); outline-offset:2px; }
.skip { position:absolute; left:-9999px; } .skip:focus { left:8px; top:8px; background:#fff; padding:4px 8px; }
.top { display:flex; flex-wrap:wrap; gap:8px 24px; align-items:center; padding:10px 20px; background:#1c2230;
  color:#fff; }
.top a { color:#dfe7ff; text-decoration:none; padding:4px 2px; }
.top a[aria-current=page] { color:#fff; border-bottom:2px solid #fff; }
.top nav { display:flex; flex-wrap:wrap; gap:16px; }
.brand { font-weight:700; letter-spacing:.02em; }
.who { margin-left:auto; display:flex; gap:12px; align-items:center; }
.who form { margin:0; }
button.link { background:none; border:0; color:#dfe7ff; padding:4px; text-decoration:underline; font:inherit; }
main { max-width:1100px; margin:0 auto; padding:16px 20px 48px; }
h1 { font-size:1.5rem; margin:.4rem 0 1rem; } h2 { font-size:1.15rem; margin:1.5rem 0 .6rem; }
h3 { font-size:1rem; margin:0; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:12px 16px; margin:0 0 12px; }
.narrow { max-width:420px; }
.grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(300px, 1fr)); gap:12px; }
.stats { display:grid; grid-template-columns:repeat(auto-fill, minmax(140px, 1fr)); gap:12px; }
.stat { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:10px 14px; }
.stat-value { display:block; font-size:1.6rem; font-weight:650; }
.stat-label { color:var(--muted); }
.stat.warn .stat-value { color:var(--warn); }
.facts { display:grid; grid-template-columns:max-content 1fr; gap:4px 14px; margin:8px 0; }
.facts dt { color:var(--muted); } .facts dd { margin:0; overflow-wrap:anywhere; }
.muted { color:var(--muted); }
.badge, .state, .level { display:inline-block; border-radius:999px; padding:0 8px; font-size:.8rem;
  border:1px solid var(--line); background:#eef1f6; color:var(--fg); white-space:nowrap; }
.badge.ok, .state-connected { color:var(--ok); border-color:#9fd3b2; background:#eaf7ef; }
.badge.warn, .state-down { color:var(--bad); border-color:#f0b4ae; background:#fdeceb; }
.decision-deny { color:var(--bad); } .decision-ask { color:var(--warn); }
.level-l0, .level-l1 { background:#eaf7ef; color:var(--ok); }
.level-l2, .level-l3 { background:#fff4e0; color:var(--warn); }
.level-l4, .level-l5 { background:#fdeceb; color:var(--bad); }
.tool-head { display:flex; flex-wrap:wrap; gap:8px; align-items:center; }
.tool.withheld { border-left:4px solid var(--warn); }
.description { white-space:pre-wrap; overflow-wrap:anywhere; }
.finding { border-top:1px dashed var(--line); padding-top:6px; }
.span { margin:4px 0 8px; padding:6px 10px; background:#fafafa; border-left:3px solid var(--bad);
  white-space:pre-wrap; overflow-wrap:anywhere; }
mark { background:var(--mark); padding:0 1px; }
.filters { display:flex; flex-wrap:wrap; gap:10px 14px; align-items:flex-end; margin:0 0 12px; }
label { display:flex; flex-direction:column; gap:2px; font-size:.9rem; color:var(--muted); }
input, select, button { font:inherit; padding:6px 8px; border:1px solid var(--line); border-radius:6px;
  background:#fff; color:var(--fg); min-height:36px; }
button { background:var(--accent); color:#fff; border-color:var(--accent); cursor:pointer; }
button.danger { background:var(--bad); border-color:var(--bad); }
.actions { display:flex; flex-wrap:wrap; gap:8px; align-items:flex-end; margin-top:10px; }
.notice { padding:8px 12px; border-radius:6px; }
.notice-ok { background:#eaf7ef; border:1px solid #9fd3b2; }
.notice-error { background:#fdeceb; border:1px solid #f0b4ae; }
.empty { padding:16px; background:var(--card); border:1px dashed var(--line); border-radius:8px; }
.studio textarea, .studio input:not([type=hidden]) { width:100%; box-sizing:border-box; } .studio .code { font-family:ui-monospace, monospace; }
.studio-field { margin:0 0 10px; }
.studio fieldset { border:1px solid var(--line); border-radius:6px; margin:0 0 10px; padding:8px 10px; }
.studio legend { color:var(--muted); font-size:.9rem; padding:0 4px; }
.chain-ok { color:var(--ok); }
.rows .row { background:var(--card); border:1px solid var(--line); border-radius:6px; margin:0 0 6px; }
.row summary { display:flex; flex-wrap:wrap; gap:6px 14px; align-items:center; padding:8px 12px; cursor:pointer; }
.row > :not(summary) { margin-left:12px; margin-right:12px; }
.row.outcome-error { border-left:4px solid var(--bad); }
.seq { color:var(--muted); font-variant-numeric:tabular-nums; }
pre { background:#f3f4f7; padding:8px 10px; border-radius:6px; overflow:auto; max-height:320px; }
.digest { font-size:.8rem; overflow-wrap:anywhere; }
table { border-collapse:collapse; width:100%; background:var(--card); }
th, td { text-align:left; vertical-align:top; padding:4px 8px; border-bottom:1px solid var(--line); }
.diff { table-layout:fixed; font-size:.9rem; margin:0 0 12px; }
.diff caption { text-align:left; padding:4px 0; }
.diff td { white-space:pre-wrap; overflow-wrap:anywhere; width:40%; }
.diff th[scope=row] { overflow-wrap:anywhere; font-weight:400; }
.diff-field th { background:#eef1f6; font-weight:650; }
.diff-changed .old, .diff-removed .old { background:#fdeceb; }
.diff-changed .new, .diff-added .new { background:#eaf7ef; }
.diff-mark { display:inline-block; width:1ch; font-weight:700; color:var(--warn); }
@media (max-width: 600px) {
  main { padding:12px; } .diff { font-size:.8rem; } .diff th, .diff td { padding:3px 4px; } .who { margin-left:0; } .facts { grid-template-columns:1fr; }
  .facts dt { margin-top:6px; }
}
`;

/** The script: `<time datetime>` shown in the viewer's zone (the server rendered UTC); the live inbox. */
export const CONSOLE_JS = `'use strict';
document.addEventListener('DOMContentLoaded', function () {
  var format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  document.querySelectorAll('time[datetime]').forEach(function (el) {
    var at = new Date(el.getAttribute('datetime'));
    if (isNaN(at.getTime())) return;
    el.title = el.textContent;
    el.textContent = format.format(at);
  });
  var live = document.querySelector('main[data-live=approvals]');
  if (!live || !window.EventSource) return;
  var stream = new EventSource('/console/approvals/stream');
  // A reload while a form is being sent would cancel that navigation (the answer's own event arrives first).
  document.addEventListener('submit', function () { stream.close(); });
  var reload = function () {
    var typing = document.activeElement && document.activeElement.name === 'reason' && document.activeElement.value;
    if (!typing) window.location.reload();
  };
  ['added', 'approved', 'declined', 'expired', 'withdrawn', 'claimed'].forEach(function (name) {
    stream.addEventListener(name, reload);
  });
  // A call that arrived between this page's rendering and the stream's opening is only in the snapshot.
  stream.addEventListener('snapshot', function (event) {
    var shown = {};
    document.querySelectorAll('article.approval').forEach(function (el) { shown[el.id] = true; });
    var entries;
    try { entries = JSON.parse(event.data); } catch (e) { return; }
    var differs = entries.length !== Object.keys(shown).length;
    entries.forEach(function (entry) { if (!shown['approval-' + entry.id]) differs = true; });
    if (differs) reload();
  });
});
`;
