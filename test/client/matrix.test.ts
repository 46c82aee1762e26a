// The composition matrix, kept as data: every kind of source (SOURCES) × every query (QUERIES) through
// every door (HTTP, the typed client, MCP, and the CLI where a command exists). Each cell answers with the
// HTTP answer's figures and validity, or refuses as HTTP does with a named reason (the same problem type and
// status from the client; an MCP tool error carrying the problem's detail). The queries include a pair
// across banks (restricted to the source's bank) and a month's averages (`group=month`): a period source
// answers group= at its own path with its own figures in force, saying so, and a door that asks for
// averages of it is refused with the reason, naming that path. An option the answer shows no sign of (`base`
// without `derivedFrom`, `asOf` without `asOf`, `provenance` without sources) fails its cell. Adding a source
// kind is one entry of SOURCES, a query one entry of QUERIES, a door one function of DOORS.
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import ecb from "../../adapters/ECB.js";
import hmrc from "../../adapters/HMRC.js";
import nbp from "../../adapters/NBP.js";
import nbpWeekly from "../../adapters/NBPB.js";
import ust from "../../adapters/UST.js";
import { ExratesClient, ExratesError } from "@exrates/client";
import { gateRecords } from "../../src/ingest/validate.js";
import { createRatesMcpServer } from "../../src/mcp/server.js";
import { publish } from "../support/unsigned.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { exrates } from "../support/cli.js";
import { fixture } from "../support/fixtures.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

// ---------------------------------------------------------------- the rows: kinds of source

interface Source {
  bank: string;
  /** The path of its frequency. */
  rates: "DailyRates" | "WeeklyRates" | "MonthlyRates" | "QuarterlyRates";
  /** Asked of a bank publishing at two frequencies (NBP): the client's and MCP's `frequency`. */
  frequency?: "Weekly";
  date: string;
  from: string;
  to: string;
  /** A currency it quotes, and a second one for the filter. */
  currency: string;
  other: string;
  /** A base to re-express against (quoted by the bank), a conversion's pair, and a pair of two quoted currencies. */
  base: string;
  convert: [string, string];
  pair: [string, string];
  asOf: string;
}

const SOURCES: Record<string, Source> = {
  "a daily bank (ECB)": {
    bank: "ECB",
    rates: "DailyRates",
    date: "2026-01-06",
    from: "2026-01-01",
    to: "2026-01-31",
    currency: "USD",
    other: "JPY",
    base: "USD",
    convert: ["USD", "JPY"],
    pair: ["USD", "JPY"],
    asOf: "2026-10-01T00:00:00Z",
  },
  "a daily bank with units (CNB, HUF per 100)": {
    bank: "CNB",
    rates: "DailyRates",
    date: "2026-01-06",
    from: "2026-01-01",
    to: "2026-01-31",
    currency: "HUF",
    other: "EUR",
    base: "USD",
    convert: ["HUF", "EUR"],
    pair: ["HUF", "EUR"],
    // Before the correction of the 6th's EUR.
    asOf: "2026-01-06T13:30:00Z",
  },
  "a monthly source (HMRC)": {
    bank: "HMRC",
    rates: "MonthlyRates",
    date: "2026-08-15",
    from: "2026-08-01",
    to: "2026-08-31",
    currency: "JPY",
    other: "USD",
    base: "USD",
    convert: ["GBP", "JPY"],
    pair: ["JPY", "USD"],
    asOf: "2026-10-01T00:00:00Z",
  },
  // NBP's second table: its weekly rates under NBP's key, beside its (here empty) daily ones.
  "a bank's weekly table (NBP Weekly)": {
    bank: "NBP",
    rates: "WeeklyRates",
    frequency: "Weekly",
    date: "2026-03-13",
    from: "2026-03-01",
    to: "2026-03-31",
    currency: "AFN",
    other: "XOF",
    base: "XOF",
    convert: ["AFN", "XOF"],
    pair: ["AFN", "XOF"],
    asOf: "2026-10-01T00:00:00Z",
  },
  "a quarterly source (UST)": {
    bank: "UST",
    rates: "QuarterlyRates",
    date: "2026-05-15",
    from: "2026-04-01",
    to: "2026-06-30",
    currency: "EUR",
    other: "JPY",
    base: "EUR",
    convert: ["USD", "EUR"],
    pair: ["EUR", "JPY"],
    asOf: "2026-10-01T00:00:00Z",
  },
};

// ---------------------------------------------------------------- the columns: queries

type Kind = "rates" | "history" | "convert" | "calendar" | "corrections" | "averages" | "pair";
/** What an answer must show of the option asked (a sign the option was not dropped). */
type Mark = "derivedFrom" | "asOf" | "provenance";

interface Query {
  kind: Kind;
  mark?: Mark;
  /** The HTTP path and query. */
  http: (s: Source) => string;
  client: (c: ExratesClient, s: Source) => Promise<unknown>;
  mcp: (s: Source) => [string, Record<string, unknown>];
  /** The `exrates` command giving the same from the local store, where one exists (its JSON output). */
  cli?: (s: Source) => string[];
}

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};
const ratesPath = (s: Source, tail: string) => `/v1/Banks/${s.bank}/${s.rates}${tail}`;
/** The frequency a source is asked at by the client and MCP, when its bank has two. */
const at = (s: Source) => (s.frequency ? { frequency: s.frequency } : {});

const QUERIES: Record<string, Query> = {
  Latest: {
    kind: "rates",
    http: (s) => ratesPath(s, "/Latest"),
    client: (c, s) => c.latest(s.bank, at(s)),
    mcp: (s) => ["get_latest_rates", { bank: s.bank, ...at(s) }],
  },
  "a date": {
    kind: "rates",
    http: (s) => ratesPath(s, `/${s.date}`),
    client: (c, s) => c.onDate(s.bank, s.date, at(s)),
    mcp: (s) => ["get_rates_on_date", { bank: s.bank, date: s.date, ...at(s) }],
  },
  "a range": {
    kind: "history",
    http: (s) => ratesPath(s, `?from=${s.from}&to=${s.to}&currencies=${s.currency}`),
    client: (c, s) => collect(c.range(s.bank, { from: s.from, to: s.to, currencies: [s.currency], ...at(s) })),
    mcp: (s) => ["get_rate_history", { bank: s.bank, currency: s.currency, from: s.from, to: s.to, ...at(s) }],
  },
  asOf: {
    kind: "rates",
    mark: "asOf",
    http: (s) => ratesPath(s, `/${s.date}?asOf=${s.asOf}`),
    client: (c, s) => c.onDate(s.bank, s.date, { asOf: s.asOf, ...at(s) }),
    mcp: (s) => ["get_rates_on_date", { bank: s.bank, date: s.date, asOf: s.asOf, ...at(s) }],
  },
  "asOf, Latest": {
    kind: "rates",
    mark: "asOf",
    http: (s) => ratesPath(s, `/Latest?asOf=${s.asOf}`),
    client: (c, s) => c.latest(s.bank, { asOf: s.asOf, ...at(s) }),
    mcp: (s) => ["get_latest_rates", { bank: s.bank, asOf: s.asOf, ...at(s) }],
  },
  base: {
    kind: "rates",
    mark: "derivedFrom",
    http: (s) => ratesPath(s, `/Latest?base=${s.base}`),
    client: (c, s) => c.latest(s.bank, { base: s.base, ...at(s) }),
    mcp: (s) => ["get_latest_rates", { bank: s.bank, base: s.base, ...at(s) }],
  },
  "base on a date": {
    kind: "rates",
    mark: "derivedFrom",
    http: (s) => ratesPath(s, `/${s.date}?base=${s.base}`),
    client: (c, s) => c.onDate(s.bank, s.date, { base: s.base, ...at(s) }),
    mcp: (s) => ["get_rates_on_date", { bank: s.bank, date: s.date, base: s.base, ...at(s) }],
  },
  currencies: {
    kind: "rates",
    http: (s) => ratesPath(s, `/Latest?currencies=${s.currency},${s.other}`),
    client: (c, s) => c.latest(s.bank, { currencies: [s.currency, s.other], ...at(s) }),
    mcp: (s) => ["get_latest_rates", { bank: s.bank, currencies: [s.currency, s.other], ...at(s) }],
  },
  provenance: {
    kind: "rates",
    mark: "provenance",
    http: (s) => ratesPath(s, `/${s.date}?provenance=true`),
    client: (c, s) => c.onDate(s.bank, s.date, { provenance: true, ...at(s) }),
    mcp: (s) => ["get_rates_on_date", { bank: s.bank, date: s.date, provenance: true, ...at(s) }],
  },
  Convert: {
    kind: "convert",
    http: (s) => `/v1/Banks/${s.bank}/Convert?from=${s.convert[0]}&to=${s.convert[1]}&amount=1250.00&date=${s.date}`,
    client: (c, s) => c.convert(s.bank, { from: s.convert[0], to: s.convert[1], amount: "1250.00", date: s.date }),
    mcp: (s) => ["convert", { bank: s.bank, from: s.convert[0], to: s.convert[1], amount: "1250.00", date: s.date }],
    cli: (s) => ["convert", s.bank, "1250.00", s.convert[0], s.convert[1], "--date", s.date, "--json"],
  },
  Calendar: {
    kind: "calendar",
    http: (s) => `/v1/Banks/${s.bank}/Calendar?year=2026`,
    client: (c, s) => c.calendar(s.bank, { year: 2026 }),
    mcp: (s) => ["get_calendar", { bank: s.bank, year: 2026 }],
  },
  Corrections: {
    kind: "corrections",
    http: (s) => `/v1/Banks/${s.bank}/Corrections?from=2026-01-01&to=2026-11-30`,
    client: (c, s) => c.corrections(s.bank, { from: "2026-01-01", to: "2026-11-30" }),
    mcp: (s) => ["list_corrections", { bank: s.bank, from: "2026-01-01", to: "2026-11-30" }],
    cli: (s) => ["corrections", s.bank, "--from", "2026-01-01", "--to", "2026-11-30", "--json"],
  },
  // A period source's rates are already per period: at its own path, group= answers its figures in force
  // and says so (x-group); a door asking for averages of it may refuse instead, naming where its rates are.
  "group=month": {
    kind: "averages",
    http: (s) => ratesPath(s, `?from=${s.from}&to=${s.to}&currencies=${s.currency}&group=month`),
    client: (c, s) => collect(c.range(s.bank, { from: s.from, to: s.to, currencies: [s.currency], group: "month" })),
    mcp: (s) => ["average_rate", { bank: s.bank, currencies: [s.currency], from: s.from, to: s.to, group: "month" }],
    cli: (s) => ["average", s.bank, "--from", s.from, "--to", s.to, "--currencies", s.currency, "--json"],
  },
  "a pair": {
    kind: "pair",
    http: (s) => `/v1/Pairs/${s.pair[0]}/${s.pair[1]}/${s.date}?banks=${s.bank}`,
    client: (c, s) => c.pair(s.pair[0], s.pair[1], { date: s.date, banks: [s.bank] }),
    mcp: (s) => ["compare_banks", { base: s.pair[0], quote: s.pair[1], date: s.date, banks: [s.bank] }],
    cli: (s) => ["pair", s.pair[0], s.pair[1], "--date", s.date, "--banks", s.bank, "--json"],
  },
};

// ---------------------------------------------------------------- answers, reduced to what must agree

/** An answer: its figures as lines, and the marks it shows; or a refusal with its reason. */
type Outcome =
  | { ok: true; lines: string[]; marks: Mark[]; note?: string }
  | { ok: false; status: number; type: string; text: string };

type Figure = { currency: string; rate: string; unitMultiplier?: number; validFrom?: string; validTo?: string };
const line = (date: string, f: Figure) =>
  `${date} ${f.currency} ${f.rate} u${f.unitMultiplier ?? 0} ${f.validFrom ?? "-"}..${f.validTo ?? "-"}`;
type ImportedSource = { kind?: string; file?: unknown; importedBy?: unknown; url?: unknown; fetchedAt?: unknown };
const imported = (s: ImportedSource) =>
  s.kind === "import" && s.file === "saved.json" && s.importedBy === "matrix" && !("fetchedAt" in s) && !("url" in s);
const marksOf = (doc: Record<string, unknown>, days: Array<Record<string, unknown>>): Mark[] =>
  [
    doc.derivedFrom ? ("derivedFrom" as const) : undefined,
    doc.asOf ? ("asOf" as const) : undefined,
    // Every source here is an imported file: each door must pass on that it was imported, and which file.
    days.some((d) => Array.isArray(d.provenance) && d.provenance.length) &&
    days.every((d) => ((d.provenance as ImportedSource[] | undefined) ?? []).every(imported))
      ? ("provenance" as const)
      : undefined,
  ].filter((m): m is Mark => m !== undefined);

type Average = Record<"period" | "mean" | "sum" | "first" | "last" | "min" | "max" | "endOfPeriod", string> & {
  currency?: string;
  bankId?: string;
  days: number | string;
  partial: boolean;
};
type PairFigure = Record<"bankId" | "rate" | "effectiveDate" | "quote" | "through", string> & {
  from: Array<{ currency: string; rate: string; unit: number | string }>;
};

/** The lines of a JSON answer of any kind (rates documents read losslessly: each rate its text). */
function linesOf(kind: Kind, doc: Record<string, unknown>): string[] {
  if (kind === "averages" && Array.isArray(doc.averages))
    return (doc.averages as Average[]).map(
      (a) =>
        `${a.period} ${a.currency ?? a.bankId} mean ${a.mean} = ${a.sum}/${a.days} ${a.first}..${a.last}` +
        ` min ${a.min} max ${a.max} end ${a.endOfPeriod}${a.partial ? " partial" : ""}`,
    );
  if (kind === "pair") {
    const c = doc.consensus as Record<"date" | "median" | "min" | "max", string> | undefined;
    return [
      ...(doc.banks as PairFigure[]).map(
        (f) =>
          `${f.bankId} ${f.rate} ${f.effectiveDate} ${f.quote} through ${f.through}: ` +
          f.from.map((u) => `${u.rate} ${u.currency}/${u.unit}`).join(", "),
      ),
      c ? `median ${c.median} (${c.min}..${c.max}) on ${c.date}` : "no consensus",
    ];
  }
  if (kind === "convert") {
    const c = doc as Record<"amount" | "from" | "result" | "to" | "effectiveDate", string>;
    const figures = doc.figures as Array<{ currency: string; rate: string; unit: number; effectiveDate: string }>;
    return [
      `${c.amount} ${c.from} = ${c.result} ${c.to} of ${c.effectiveDate}`,
      ...figures.map((f) => `${f.currency} ${f.rate} /${f.unit} ${f.effectiveDate}`),
    ];
  }
  if (kind === "calendar") {
    const closings = doc.closings as Array<{ date: string; name: string }>;
    return [...(doc.publicationDays as string[]), ...closings.map((c) => `${c.date} closed: ${c.name}`)];
  }
  if (kind === "corrections")
    return (
      doc.corrections as Array<{ effectiveDate: string; currency: string; previous: Figure; current: Figure }>
    ).map((c) => `${c.effectiveDate} ${c.currency} ${c.previous.rate} -> ${c.current.rate}`);
  const rates = doc.rates as Record<string, Record<string, Figure & { unitMultiplier?: string }>>;
  return Object.entries(rates).flatMap(([date, day]) =>
    Object.entries(day)
      .filter(([code]) => /^[A-Z]{3}$/.test(code))
      .map(([currency, f]) =>
        line(date, { ...f, currency, ...(f.unitMultiplier ? { unitMultiplier: Number(f.unitMultiplier) } : {}) }),
      ),
  );
}

const DOORS = {
  /** The built `exrates` binary over the server's own data directory (no cell where no command exists). */
  async cli(query: Query, s: Source): Promise<Outcome | undefined> {
    const args = query.cli?.(s);
    if (!args) return undefined;
    const run = await Promise.resolve(exrates(args, { EXRATES_DATA_DIR: join(server.root, "data") }));
    if (run.status !== 0) return { ok: false, status: 0, type: "", text: run.stderr.trim() };
    const parsed = JSON.parse(run.stdout) as unknown;
    const doc = (Array.isArray(parsed) ? { corrections: parsed } : parsed) as Record<string, unknown>;
    return { ok: true, lines: linesOf(query.kind, doc), marks: [] };
  },

  async http(query: Query, s: Source): Promise<Outcome> {
    // Once more when the socket was closed under the request: a kept-alive connection idle past the server's
    // keep-alive timeout (a CLI cell can take that long on a loaded machine) can be closed just as it is reused.
    const get = () => fetch(`${server.url}${query.http(s)}`, { headers: auth });
    const res = await get().catch((error: Error) => {
      const code = (error.cause as { code?: string } | undefined)?.code;
      if (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET") throw error;
      return get();
    });
    const text = await res.text();
    if (!res.ok) {
      const problem = JSON.parse(text) as { type: string; detail: string };
      return { ok: false, status: res.status, type: problem.type, text: problem.detail };
    }
    const doc = (
      query.kind === "rates" || query.kind === "history" || query.kind === "averages"
        ? parseLossless(text, null, (v: string) => v)
        : JSON.parse(text)
    ) as Record<string, unknown>;
    const days = query.kind === "rates" ? Object.values(doc.rates as Record<string, Record<string, unknown>>) : [];
    const note = res.headers.get("x-group") ?? undefined;
    return { ok: true, lines: linesOf(query.kind, doc), marks: marksOf(doc, days), ...(note ? { note } : {}) };
  },

  async client(query: Query, s: Source): Promise<Outcome> {
    let answer: unknown;
    try {
      answer = await query.client(client, s);
    } catch (error) {
      if (!(error instanceof ExratesError)) throw error;
      return { ok: false, status: error.status, type: error.type, text: error.detail };
    }
    if (query.kind === "averages") return { ok: true, lines: linesOf("averages", { averages: answer }), marks: [] };
    if (query.kind !== "rates" && query.kind !== "history")
      return { ok: true, lines: linesOf(query.kind, answer as Record<string, unknown>), marks: [] };
    const days = (Array.isArray(answer) ? answer : [answer]) as Array<
      { effectiveDate: string; rates: Figure[] } & Record<string, unknown>
    >;
    return {
      ok: true,
      lines: days.flatMap((d) => d.rates.map((f) => line(d.effectiveDate, f))),
      marks: days[0] ? marksOf(days[0], days) : [],
    };
  },

  async mcp(query: Query, s: Source): Promise<Outcome> {
    const [name, args] = query.mcp(s);
    const result = (await mcp.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
      structuredContent?: Record<string, unknown>;
    };
    if (result.isError) return { ok: false, status: 0, type: "", text: result.content[0]!.text };
    const doc = result.structuredContent!;
    type McpFigure = Figure & { unit: number };
    const figure = (date: string, f: McpFigure, currency = f.currency) =>
      line(date, { ...f, currency, ...(f.unit !== 1 ? { unitMultiplier: Math.round(Math.log10(f.unit)) } : {}) });
    if (query.kind === "history")
      return {
        ok: true,
        lines: (doc.points as Array<McpFigure & { effectiveDate: string }>).map((p) =>
          figure(p.effectiveDate, p, s.currency),
        ),
        marks: [],
      };
    if (query.kind !== "rates") return { ok: true, lines: linesOf(query.kind, doc), marks: [] };
    const lines = (doc.rates as McpFigure[]).map((f) => figure(doc.effectiveDate as string, f));
    return { ok: true, lines, marks: marksOf(doc, [doc]) };
  },
};

// ---------------------------------------------------------------- the store and the server (one per file)

let server: InProcessServer;
let auth: Record<string, string>;
let client: ExratesClient;
let mcp: Client;

function ingest(bankId: string, url: string, at: string, records: RateRecord[], body: Buffer): void {
  const when = new Date(at);
  const provenance = {
    ...{ kind: "import" as const, method: "GET" as const, url, startedAt: when, finishedAt: when },
    ...{ file: "saved.json", importedBy: "matrix" },
  };
  ingestBatches(server.store, bankId, [{ provenance: { ...provenance, httpStatus: 200, body }, records }], when);
}
const day = (effectiveDate: string, figures: Array<[string, string, number?]>, validTo?: string): RateRecord[] =>
  figures.map(([currency, rate, unitMultiplier]) => ({
    effectiveDate,
    currency,
    rate,
    ...(unitMultiplier ? { unitMultiplier } : {}),
    ...(validTo ? { validTo } : {}),
  }));

async function seed(): Promise<void> {
  const cnbUrl = "https://api.cnb.cz/cnbapi/exrates/daily";
  const cnbDay = (date: string, eur: string) =>
    day(date, [
      ["EUR", eur],
      ["HUF", "6.304", 2],
      ["USD", "20.742"],
    ]);
  ingest("CNB", cnbUrl, "2026-01-05T13:00:00Z", cnbDay("2026-01-05", "24.195"), Buffer.from("cnb 5"));
  ingest("CNB", cnbUrl, "2026-01-06T13:00:00Z", cnbDay("2026-01-06", "24.210"), Buffer.from("cnb 6"));
  ingest("CNB", cnbUrl, "2026-01-06T14:00:00Z", cnbDay("2026-01-06", "24.215"), Buffer.from("cnb 6 again"));
  recordQuoting(server.store, "CNB", "CZK", "Direct");
  const ecbUrl = "https://data-api.ecb.europa.eu/service/data/EXR";
  for (const [date, usd] of [
    ["2026-01-05", "1.1650"],
    ["2026-01-06", "1.1702"],
  ] as const)
    ingest(
      "ECB",
      ecbUrl,
      `${date}T15:00:00Z`,
      day(date, [
        ["JPY", "182.50"],
        ["USD", usd],
      ]),
      Buffer.from(date),
    );
  recordQuoting(server.store, "ECB", "EUR", "Indirect");
  const hmrcFile = "HMRC/monthly_xml_2026-08.xml";
  const hmrcUrl = "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-08.xml";
  const parsed = await hmrc.parse(fixture(hmrcFile), { url: hmrcUrl });
  ingest(
    "HMRC",
    hmrcUrl,
    "2026-07-23T11:00:00Z",
    gateRecords("GBP", parsed.records, parsed.held).records,
    fixture(hmrcFile),
  );
  recordQuoting(server.store, "HMRC", "GBP", "Indirect");
  const ustUrl = "https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange";
  const quarter = day(
    "2026-04-01",
    [
      ["EUR", "0.857"],
      ["JPY", "143.6"],
    ],
    "2026-06-30",
  );
  ingest("UST", ustUrl, "2026-04-02T12:00:00Z", quarter, Buffer.from("ust q2"));
  recordQuoting(server.store, "UST", "USD", "Indirect");
  const nbpFile = "NBPB/tables.json";
  const nbpUrl = "https://api.nbp.pl/api/exchangerates/tables/B/2026-03-01/2026-03-14/?format=json";
  const tables = await nbpWeekly.parse(fixture(nbpFile), { url: nbpUrl });
  ingest(
    "NBPB",
    nbpUrl,
    "2026-03-11T11:30:00Z",
    gateRecords("PLN", tables.records, tables.held).records,
    fixture(nbpFile),
  );
  recordQuoting(server.store, "NBPB", "PLN", "Direct");
  await publish(server.store, [cnb, ecb, hmrc, nbp, nbpWeekly, ust], server.config.outDir);
}

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  await seed();
  auth = { authorization: `Bearer ${await server.token()}` };
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${server.url}/v1/Banks/UST/QuarterlyRates/Latest`, { headers: auth });
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  client = new ExratesClient({
    baseUrl: server.url,
    tokenUrl: server.tokenUrl,
    clientId: server.client.id,
    clientSecret: server.client.secret,
    cache: false,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createRatesMcpServer(client).connect(serverSide);
  mcp = new Client({ name: "matrix", version: "1" });
  await mcp.connect(clientSide);
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

// ---------------------------------------------------------------- the cells

/**
 * Cells that do not hold yet, each with the work that makes it hold: vitest runs them expecting a
 * failure, so a cell that starts to hold fails here until it is taken off this list.
 */
const AWAITING: Record<string, string> = {};

async function cell(source: Source, query: Query): Promise<void> {
  const http = await DOORS.http(query, source);
  if (http.ok) {
    if (query.kind !== "corrections") expect(http.lines.length, "HTTP answered nothing to compare").toBeGreaterThan(0);
    if (query.mark) expect(http.marks, `HTTP dropped ${query.mark}`).toContain(query.mark);
    // A period source's figures carry their validity, whatever the query.
    if (source.rates !== "DailyRates" && (query.kind === "rates" || query.kind === "history"))
      expect(
        http.lines.filter((l) => l.endsWith(" -..-")),
        "figures without validity",
      ).toEqual([]);
  }
  for (const door of ["client", "mcp", "cli"] as const) {
    const answer = await DOORS[door](query, source);
    if (!answer) continue;
    if (door === "cli" && !http.ok) {
      expect(answer.ok, "the CLI answered what HTTP refused").toBe(false);
      expect((answer as Extract<Outcome, { ok: false }>).text, "the CLI says why").not.toBe("");
      continue;
    }
    if (http.ok && http.note && !answer.ok && source.frequency) {
      // A bank with a daily table beside this one: the doors that average ask its daily figures (the
      // averages are of daily figures), which this store leaves empty, and refuse with that reason.
      expect(answer.text, `${door} says why`).toMatch(/No rates stored for bank/);
      continue;
    }
    if (http.ok && http.note && !answer.ok) {
      expect(http.note, "HTTP says it did not average").toMatch(/not averaged/);
      expect(answer.text, `${door} names where the period source's rates are`).toContain(
        `/v1/Banks/${source.bank}/${source.rates}`,
      );
      if (door === "client") expect(answer.type).toBe("urn:exrates:problem:other-frequency");
      continue;
    }
    if (http.ok) {
      expect(answer, `${door}: ${JSON.stringify(answer)}`).toMatchObject({ ok: true });
      const { lines, marks } = answer as Extract<Outcome, { ok: true }>;
      // MCP's history is of the one currency asked; HTTP's range was filtered to it too.
      expect(lines, door).toEqual(http.lines);
      if (query.mark) expect(marks, `${door} dropped ${query.mark}`).toContain(query.mark);
    } else if (door === "client") {
      expect(answer).toMatchObject({ ok: false, status: http.status, type: http.type });
    } else {
      expect(answer.ok, "mcp answered what HTTP refused").toBe(false);
      expect((answer as Extract<Outcome, { ok: false }>).text, "mcp names the reason").toContain(http.text);
    }
  }
}

describe.each(Object.entries(SOURCES))("%s", (kind, source) => {
  for (const [name, query] of Object.entries(QUERIES)) {
    const awaiting = AWAITING[`${kind} | ${name}`];
    if (awaiting) it.fails(`${name}: awaiting ${awaiting}`, () => cell(source, query));
    else it(`${name}: every door answers as HTTP does, or refuses with its reason`, () => cell(source, query));
  }
});
