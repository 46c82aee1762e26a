// Secrets are masked by value, end to end. Each bank that needs a credential (FRED, TCMB, BAM, BANXICO,
// BCCH with user:password in its URL's `pass=`, BOT) is fetched by the built binary through a local
// feed mirror that first fails (404), then answers with an error that echoes every credential it was
// sent, then answers the bank's fixture. Then `exrates banks`, `exrates banks --json` and the daemon's
// `GET /v1/status` are read, and every byte written - stdout, stderr at debug level, every table of the
// database, the API - is searched for each secret in every spelling a URL, a form or JSON gives it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { cli, finished, spawnCli, waitFor } from "../e2e/support.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

/** Each credential bank, its variable, a distinctive value, and what its feed answers when it works. */
const BANKS = [
  { id: "FRED", env: "EXRATES_FRED_API_KEY", secret: "fredKey-7f3a9c0d2e5b" },
  { id: "TCMB", env: "EXRATES_TCMB_API_KEY", secret: "tcmbKey-A1b2C3d4E5" },
  { id: "BAM", env: "EXRATES_BAM_API_KEY", secret: "bamSubscription-0c9d8e7f" },
  { id: "BANXICO", env: "EXRATES_BANXICO_API_KEY", secret: "banxicoToken-5e6f7a8b9c" },
  // The user and the password each matter; both need URL-encoding in the query.
  { id: "BCCH", env: "EXRATES_BCCH_API_KEY", secret: "bcch.user@example.com:p@ss w0rd+/&=Zq9" },
  { id: "BOT", env: "EXRATES_BOT_API_KEY", secret: "botClientKey-3d4c5b6a" },
] as const;

/** What must never be found: the value, each half of a pair, and their URL, form and JSON spellings. */
function forbidden(secret: string): string[] {
  const parts = [secret, ...(secret.includes(":") ? secret.split(/:(.*)/s).slice(0, 2) : [])];
  const spellings = new Set<string>();
  for (const p of parts) {
    const uri = encodeURIComponent(p);
    for (const s of [p, uri, uri.toLowerCase(), new URLSearchParams([["", p]]).toString().slice(1)]) {
      spellings.add(s);
      spellings.add(JSON.stringify(s).slice(1, -1));
    }
  }
  return [...spellings];
}

function fixtureFor(bank: string, url: URL): string {
  if (bank === "FRED")
    return url.searchParams.get("series_id") === "DEXJPUS" ? "FRED/DEXJPUS.json" : "FRED/DEXUSEU.json";
  return { TCMB: "TCMB/items.json", BAM: "BAM/cours.json", BANXICO: "BANXICO/series.json", BCCH: "BCCH/usd.json" }[
    bank
  ]!;
}

const HOSTS: Record<string, string> = {
  "api.stlouisfed.org": "FRED",
  "evds3.tcmb.gov.tr": "TCMB",
  "api.centralbankofmorocco.ma": "BAM",
  "www.banxico.org.mx": "BANXICO",
  "si3.bcentral.cl": "BCCH",
  "gateway.api.bot.or.th": "BOT",
};

type Mode = "missing" | "echo" | "ok";

/**
 * An answer that carries what the bank was sent into the adapter's error or held row: an error text
 * (FRED, BCCH), a field name (TCMB, BAM), a figure (BANXICO), a header (BOT).
 */
function echoed(bank: string, sent: string): unknown {
  const text = `invalid credentials ${sent}`;
  switch (bank) {
    case "TCMB":
      return { items: [{ Tarih: "02-01-2026", [text]: "1" }] };
    case "BAM":
      return [{ [text]: 1 }];
    case "BANXICO":
      return { bmx: { series: [{ idSerie: "SF43718", datos: [{ fecha: "02/01/2026", dato: text }] }] } };
    case "BOT":
      return { result: { data: { data_header: { report_uoq_name_eng: text }, data_detail: [] } } };
    default:
      return { Codigo: -5, Descripcion: text, error_message: text };
  }
}

/** The mirror: `/<host>/<path>?<query>`; it records what credentials reached it. */
function startFeed(): Promise<{ server: Server; url: string; setMode(m: Mode): void; received: string[] }> {
  let mode: Mode = "missing";
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const target = new URL(`https:/${req.url!}`);
    const bank = HOSTS[target.host];
    const echo = `${decodeURIComponent(req.url!)} ${Object.values(req.headers).join(" ")}`;
    received.push(echo);
    if (!bank || mode === "missing") {
      res.writeHead(404, { "content-type": "text/plain" }).end(`no such key: ${echo}\n`);
      return;
    }
    if (mode === "echo") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(echoed(bank, echo)));
      return;
    }
    if (bank === "BOT") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(readFileSync(join(FIXTURES_DIR, "BOT/daily.json")));
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(readFileSync(join(FIXTURES_DIR, fixtureFor(bank, target))));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, setMode: (m) => (mode = m), received });
    }),
  );
}

const root = mkdtempSync(join(tmpdir(), "exrates-secrets-"));
const env: Record<string, string> = {
  EXRATES_DATA_DIR: join(root, "data"),
  EXRATES_OUT_DIR: join(root, "out"),
  LOG_LEVEL: "debug",
  ...Object.fromEntries(BANKS.map((b) => [b.env, b.secret])),
};
/** Everything the binary wrote, by where it went. */
const written: Array<{ where: string; text: string }> = [];
let feed: Awaited<ReturnType<typeof startFeed>>;

function databaseDump(): Array<{ where: string; text: string }> {
  const db = new BetterSqlite3(join(env.EXRATES_DATA_DIR!, "exrates.db"), { readonly: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
    return tables.map((t) => ({ where: `table ${t}`, text: JSON.stringify(db.prepare(`select * from "${t}"`).all()) }));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  feed = await startFeed();
  env.EXRATES_FEED_MIRROR = feed.url;
  const ids = BANKS.map((b) => b.id);
  for (const mode of ["missing", "echo", "ok"] as const) {
    feed.setMode(mode);
    const run = await cli(["ingest", ...ids], env, 120_000);
    written.push(
      { where: `ingest (${mode}) stdout`, text: run.stdout },
      { where: `ingest (${mode}) stderr`, text: run.stderr },
    );
  }
  for (const args of [["banks"], ["banks", "--json"]]) {
    const run = await cli(args, env);
    expect(run.code, run.stderr).toBe(0);
    written.push(
      { where: `${args.join(" ")} stdout`, text: run.stdout },
      { where: `${args.join(" ")} stderr`, text: run.stderr },
    );
  }
  // The daemon's status API, which every client of the API can read.
  feed.setMode("missing");
  const daemon = spawnCli(["start"], { ...env, EXRATES_PORT: "0" });
  try {
    await waitFor(daemon, (o) => o.stdout.includes("client_secret:") && o.stderr.includes('"msg":"serving"'), 60_000);
    const url = /serving on (http:\/\/\S+) /.exec(daemon.out.stdout)![1]!;
    const secret = /client_secret: (\S+)/.exec(daemon.out.stdout)![1]!;
    const tokenRes = await fetch(`${url}/auth/realms/exrates/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "exrates-client",
        client_secret: secret,
        scope: "exchange-rates",
      }),
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const status = await fetch(`${url}/v1/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
    written.push({ where: "GET /v1/status", text: await status.text() });
  } finally {
    process.kill(daemon.pid!, "SIGTERM");
    await finished(daemon, 15_000);
    written.push({ where: "start stderr", text: daemon.out.stderr });
  }
  written.push(...databaseDump());
}, 300_000);

afterAll(async () => {
  await new Promise((r) => feed?.server.close(r));
  rmSync(root, { recursive: true, force: true });
});

describe("a bank's credential appears nowhere: logs, errors, every table, /v1/status, exrates banks", () => {
  it("the run went through every path: failures, echoed credentials and stored rates", () => {
    const db = databaseDump();
    const fetches = db.find((d) => d.where === "table fetches")!.text;
    for (const b of BANKS) expect(fetches).toContain(`"bank_id":"${b.id}"`);
    expect(fetches).toContain('"error":null'); // successful fetches too
    expect(fetches).toMatch(/"error":"[^"]+/); // and failed ones
    expect(db.find((d) => d.where === "table bank_runs")!.text).toMatch(/"last_error":"[^"]+/);
    expect(written.find((w) => w.where === "GET /v1/status")!.text).toContain('"lastError":');
    // BCCH's password reached the bank in its URL; it is stored masked, by value and by name.
    expect(fetches).toMatch(/si3\.bcentral\.cl[^"]*[?&]user=\*\*\*&pass=\*\*\*/);
  });

  it.each(BANKS)("$id: the bank received $env, and nothing this process wrote holds it", ({ secret }) => {
    const spellings = forbidden(secret);
    // The test means something: the mirror did see the credential (raw or encoded).
    expect(feed.received.some((r) => r.includes(secret.split(":").pop()!))).toBe(true);
    for (const { where, text } of written) {
      for (const s of spellings) expect(text.includes(s), `${where} holds ${JSON.stringify(s)}`).toBe(false);
    }
  });
});
