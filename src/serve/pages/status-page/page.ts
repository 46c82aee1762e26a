// `GET /`: a status page for people, without a token. Every known bank with its state, newest date,
// next run and last error (secrets masked), and a small chart of its main currency (USD, else EUR)
// over the last 90 days, drawn as inline SVG on the server: no script at all, no CDN, nothing
// fetched by the browser, and only what is public anyway (banks' official rates and the daemon's
// state, never a client, a token, a key or a credential). Rendered at most once per RENDER_MS.
import { redactSecrets } from "../../../secrets.js";
import type { Store } from "../../../store/database.js";
import type { BankResource } from "../../../types.js";
import type { Handler } from "../../context.js";
import type { LoadedTree } from "../../state/tree.js";
import { bankRows, SeriesReader } from "./data.js";
import { pageHtml } from "./html.js";

/** A rendered page is served this long before the next request renders it again. */
const RENDER_MS = 30_000;
const DAYS = 90;

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

export interface StatusPage {
  /** The page's bytes: the last rendering, or a new one when it is older than RENDER_MS. */
  page(): Promise<Buffer>;
  close(): void;
}

/** The route's handler: the page of the context (built by server.ts). */
export const statusPage: Handler = async (ctx, _req, res, head) => {
  const html = await ctx.statusPage();
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

export function createStatusPage(options: StatusPageOptions): StatusPage {
  let cached: { at: number; html: Buffer } | undefined;
  let rendering: Promise<Buffer> | undefined;
  const charts = new SeriesReader(options.databasePath, options.shared);

  const render = async (): Promise<Buffer> => {
    const now = new Date(options.now());
    const since = new Date(now.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
    const banks = await bankRows(options.tree(), options.knownBanks, options.status);
    const series = await Promise.all(banks.map((b) => charts.series(b.id, since)));
    const html = pageHtml(banks, series, now, options.tree()?.generation);
    // The last errors come from feeds: a credential that reached one is masked here too.
    return Buffer.from(redactSecrets(html), "utf8");
  };

  return {
    page() {
      const at = options.now();
      if (cached && at - cached.at < RENDER_MS) return Promise.resolve(cached.html);
      rendering ??= render()
        .then((html) => {
          cached = { at, html };
          return html;
        })
        .finally(() => (rendering = undefined));
      return rendering;
    },
    close: () => charts.close(),
  };
}
