// `GET /`: a status page for people, without a token. Every known bank with its state, newest date,
// next run and last error (secrets masked), and a small chart of its main currency (USD, else EUR)
// over the last 90 days, drawn as inline SVG on the server: no script at all, no CDN, nothing
// fetched by the browser, and only what is public anyway (banks' official rates and the daemon's
// state, never a client, a token, a key or a credential). Rendered at most once per RENDER_MS.
import type { ServerResponse } from "node:http";

import Database from "better-sqlite3";

import { redactSecrets } from "../../../secrets.js";
import type { Store } from "../../../store/database.js";
import type { BankResource } from "../../../types.js";
import type { Handler } from "../../routes.js";
import type { LoadedTree } from "../../state/tree.js";

/** A rendered page is served this long before the next request renders it again. */
const RENDER_MS = 30_000;
const DAYS = 90;
const MAIN_CURRENCIES = ["USD", "EUR"];

export interface StatusPageOptions {
  databasePath: string;
  /** A shared PostgreSQL store: the charts are read through it instead of a SQLite file. */
  shared?: Store;
  tree: () => LoadedTree | undefined;
  knownBanks?: () => Promise<ReadonlyMap<string, BankResource>>;
  /** The scheduler's status rows (`exrates start`); absent, the page shows what is published. */
  status?: () => Promise<unknown[]>;
  now: () => number;
}

/** The fields of a status row the page shows (src/schedule/status.ts's BankStatus). */
interface Row {
  id: string;
  name: string;
  state: string;
  newestDate: string | null;
  nextRunAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

interface Point {
  date: string;
  value: number;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STATE_CLASS: Record<string, string> = {
  ok: "ok",
  published: "ok",
  running: "busy",
  pending: "busy",
  stale: "bad",
  failing: "bad",
};

export function createStatusPage(options: StatusPageOptions): { handler: Handler; close(): void } {
  let cached: { at: number; html: Buffer } | undefined;
  let rendering: Promise<Buffer> | undefined;
  let db: Database.Database | undefined;

  const open = (): Database.Database | undefined => {
    if (db) return db;
    try {
      db = new Database(options.databasePath, { readonly: true, fileMustExist: true });
      db.pragma("busy_timeout = 1000");
    } catch {
      db = undefined;
    }
    return db;
  };

  type SeriesRow = { date: string; rate: string; unit: number };
  const toSeries = (currency: string, rows: SeriesRow[]) => ({
    currency,
    points: rows.map((r) => ({ date: r.date, value: Number(r.rate) / 10 ** Number(r.unit) })),
  });

  /** The bank's main currency over the last DAYS days (empty without a store or rates). */
  const series = async (bankId: string, since: string): Promise<{ currency: string; points: Point[] } | undefined> => {
    if (options.shared) {
      try {
        for (const currency of MAIN_CURRENCIES) {
          const rows = await options.shared.db
            .selectFrom("rates")
            .select(["effective_date as date", "rate", "unit_multiplier as unit"])
            .where("bank_id", "=", bankId)
            .where("effective_date", ">=", since)
            .where("currency", "=", currency)
            .orderBy("effective_date")
            .execute();
          if (rows.length > 0) return toSeries(currency, rows);
        }
      } catch {
        // The database unreachable for a moment: no chart this time.
      }
      return undefined;
    }
    const conn = open();
    if (!conn) return undefined;
    try {
      const query = conn.prepare(
        "select effective_date as date, rate, unit_multiplier as unit from rates where bank_id = ? and effective_date >= ? and currency = ? order by effective_date",
      );
      for (const currency of MAIN_CURRENCIES) {
        const rows = query.all(bankId, since, currency) as SeriesRow[];
        if (rows.length > 0) return toSeries(currency, rows);
      }
    } catch {
      // A store being migrated or replaced: no chart this time.
    }
    return undefined;
  };

  const rows = async (): Promise<Row[]> => {
    const tree = options.tree();
    const known = (await options.knownBanks?.()) ?? new Map<string, BankResource>();
    if (options.status) {
      return (await options.status()).map((r) => {
        const row = r as Partial<Row> & { id: string };
        return {
          id: row.id,
          name: row.name ?? known.get(row.id)?.name[0]?.name ?? row.id,
          state: row.state ?? "unknown",
          newestDate: row.newestDate ?? null,
          nextRunAt: row.nextRunAt ?? null,
          lastError: row.lastError ?? null,
          lastErrorAt: row.lastErrorAt ?? null,
        };
      });
    }
    const ids = [...new Set([...known.keys(), ...(tree?.banks.keys() ?? [])])].sort();
    return ids.map((id) => {
      const published = tree?.banks.get(id)?.effectiveDate ?? null;
      return {
        id,
        name: known.get(id)?.name[0]?.name ?? id,
        state: published ? "published" : "not published",
        newestDate: published,
        nextRunAt: null,
        lastError: null,
        lastErrorAt: null,
      };
    });
  };

  const render = async (): Promise<Buffer> => {
    const now = new Date(options.now());
    const since = new Date(now.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
    const banks = await rows();
    const counts = new Map<string, number>();
    for (const b of banks) counts.set(b.state, (counts.get(b.state) ?? 0) + 1);
    const charts = await Promise.all(banks.map((b) => series(b.id, since)));
    const cards = banks.map((b, i) => card(b, charts[i])).join("\n");
    const summary = [...counts].map(([state, n]) => `${n} ${escape(state)}`).join(" · ");
    const generation = options.tree()?.generation;
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>exrates status</title>
<style>
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6470; --card: #f6f8fa; --line: #0969da; --ok: #1a7f37; --busy: #9a6700; --bad: #cf222e; }
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
</style>
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
    // The last errors come from feeds: a credential that reached one is masked here too.
    return Buffer.from(redactSecrets(html), "utf8");
  };

  const page = async (): Promise<Buffer> => {
    const at = options.now();
    if (cached && at - cached.at < RENDER_MS) return cached.html;
    rendering ??= render()
      .then((html) => {
        cached = { at, html };
        return html;
      })
      .finally(() => (rendering = undefined));
    return rendering;
  };

  const handler: Handler = async (_req, res: ServerResponse, head) => {
    const html = await page();
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": html.length,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      // No script, no frame, nothing loaded from anywhere: the page is one self-contained document.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    });
    res.end(head ? undefined : html);
  };
  return {
    handler,
    close() {
      db?.close();
      db = undefined;
    },
  };
}

function card(b: Row, chart: { currency: string; points: Point[] } | undefined): string {
  const cls = STATE_CLASS[b.state] ?? "other";
  const next = b.nextRunAt ? `${b.nextRunAt.slice(0, 16).replace("T", " ")} UTC` : "—";
  const error = b.lastError
    ? `<dt>Last error</dt><dd class="error">${escape(b.lastError.slice(0, 300))}${
        b.lastErrorAt ? ` <span class="meta">(${escape(b.lastErrorAt.slice(0, 16).replace("T", " "))})</span>` : ""
      }</dd>`
    : "";
  return `<article id="bank-${escape(b.id)}" data-state="${escape(b.state)}">
<h2><span>${escape(b.id)} <span class="state ${cls}">${escape(b.state)}</span></span><span class="name">${escape(b.name)}</span></h2>
<dl><dt>Newest date</dt><dd>${escape(b.newestDate ?? "none")}</dd><dt>Next run</dt><dd>${escape(next)}</dd>${error}</dl>
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
