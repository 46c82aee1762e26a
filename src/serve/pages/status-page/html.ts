// The status page's HTML: one card per bank (state, newest date, next run, last error) with a small
// chart of its main currency drawn as inline SVG, and the CSS inline. No script, nothing loaded from
// anywhere: one self-contained document, every value escaped.
import type { Point, Row, Series } from "./data.js";

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STATE_CLASS: Record<string, string> = {
  "up to date": "ok",
  holiday: "ok",
  published: "ok",
  waiting: "busy",
  late: "busy",
  stale: "bad",
  failing: "bad",
};

const STYLE = `:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6470; --card: #f6f8fa; --line: #0969da; --ok: #1a7f37; --busy: #9a6700; --bad: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --card: #161b22; --line: #4493f8; --ok: #3fb950; --busy: #d29922; --bad: #f85149; } body { background: #0d1117; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
header { max-width: 72rem; margin: 0 auto 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
.meta { color: var(--muted); font-size: .9rem; margin: 0; overflow-wrap: anywhere; }
main { max-width: 72rem; margin: 0 auto; display: grid; gap: .75rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); }
article { background: var(--card); border-radius: .5rem; padding: .75rem .9rem; min-width: 0; }
h2 { font-size: 1rem; margin: 0; display: flex; justify-content: space-between; gap: .5rem; align-items: baseline; }
h2 .name { font-weight: 400; color: var(--muted); font-size: .85rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.state { display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .4rem; border-radius: 1rem; border: 1px solid currentColor; }
.state.ok { color: var(--ok); } .state.busy { color: var(--busy); } .state.bad { color: var(--bad); } .state.other { color: var(--muted); }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0 .75rem; margin: .5rem 0; font-size: .85rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.error { color: var(--bad); }
svg { display: block; width: 100%; height: auto; }
svg polyline { fill: none; stroke: var(--line); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
svg text { fill: var(--muted); font-size: 10px; }
.nochart { color: var(--muted); font-size: .8rem; margin: .25rem 0 0; }
`;

/** The whole page: the banks' rows and charts (in the same order), as of `now`. */
export function pageHtml(
  banks: Row[],
  charts: Array<Series | undefined>,
  now: Date,
  generation: string | undefined,
): string {
  const counts = new Map<string, number>();
  for (const b of banks) counts.set(b.state, (counts.get(b.state) ?? 0) + 1);
  const cards = banks.map((b, i) => card(b, charts[i])).join("\n");
  const summary = [...counts].map(([state, n]) => `${n} ${escape(state)}`).join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>exrates status</title>
<style>
${STYLE}</style>
</head>
<body>
<header>
<h1>exrates: central banks' daily exchange rates</h1>
<p class="meta">${banks.length} banks: ${summary || "none"}${generation ? ` · published generation ${escape(generation)}` : " · nothing published yet"} · as of ${escape(now.toISOString().slice(0, 16).replace("T", " "))} UTC</p>
</header>
<main>
${cards}
</main>
</body>
</html>
`;
}

function card(b: Row, chart: Series | undefined): string {
  const cls = STATE_CLASS[b.state] ?? "other";
  const next = b.nextRunAt ? `${b.nextRunAt.slice(0, 16).replace("T", " ")} UTC` : "—";
  const error = b.lastError
    ? `<dt>Last error</dt><dd class="error">${escape(b.lastError.slice(0, 300))}${
        b.lastErrorAt ? ` <span class="meta">(${escape(b.lastErrorAt.slice(0, 16).replace("T", " "))})</span>` : ""
      }</dd>`
    : "";
  return `<article id="bank-${escape(b.id)}" data-state="${escape(b.state)}">
<h2><span>${escape(b.id)} <span class="state ${cls}">${escape(b.state)}</span></span><span class="name">${escape(b.name)}</span></h2>
<dl>${b.summary && b.summary !== b.state ? `<dt>Status</dt><dd>${escape(b.summary)}</dd>` : ""}<dt>Newest date</dt><dd>${escape(b.newestDate ?? "none")}</dd><dt>Next run</dt><dd>${escape(next)}</dd>${error}</dl>
${chart && chart.points.length > 0 ? sparkline(b.id, chart.currency, chart.points) : '<p class="nochart">No rates in the last 90 days</p>'}
</article>`;
}

/** The series as an SVG polyline scaled into a 300×60 box, its first and last value labelled. */
function sparkline(bankId: string, currency: string, points: Point[]): string {
  const width = 300;
  const height = 60;
  const pad = 12;
  const values = points.map((p) => p.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const first = Date.parse(points[0]!.date);
  const days = Math.max(1, (Date.parse(points.at(-1)!.date) - first) / 86_400_000);
  const xy = points.map((p) => {
    const x = (((Date.parse(p.date) - first) / 86_400_000 / days) * (width - 2)).toFixed(1);
    const y = (pad + (1 - (p.value - min) / span) * (height - 2 * pad)).toFixed(1);
    return `${x},${y}`;
  });
  const last = points.at(-1)!;
  const label = `${currency} at ${bankId}, ${points[0]!.date} to ${last.date}: ${points[0]!.value} to ${last.value}`;
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(label)}" data-currency="${currency}" data-points="${points.length}">
<title>${escape(label)}</title>
<polyline points="${xy.join(" ")}"/>
<text x="0" y="9">${escape(currency)} ${escape(String(max))}</text>
<text x="0" y="${height - 1}">${escape(String(min))}</text>
<text x="${width}" y="${height - 1}" text-anchor="end">${escape(last.date)}</text>
</svg>`;
}
