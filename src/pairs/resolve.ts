// One pair query resolved: the store read, the pair across banks (a date, Latest) or a range's days
// (grouped into averages when asked), and the document in a format. Every door (HTTP, CLI) builds a
// PairQuery and renders what this returns; none computes on its own.
import { crossCheckConfig } from "../ingest/sanity.js";
import type { HistoryStore } from "../store/history.js";
import type { IsoDate } from "../types.js";
import { Averager, type Group } from "./average.js";
import { pairAcross, type PairAnswer, type PairSettings } from "./pair.js";
import { banksOf, readBankDays, readRangeDays, type FrequencyLookup, type PairQuery } from "./read.js";
import {
  AVERAGE_CSV_HEADER,
  averageRows,
  averagesCsv,
  averagesJson,
  averagesXml,
  csvOf,
  PAIR_CSV_HEADER,
  pairJson,
  pairRangeJson,
  pairRangeXml,
  pairRows,
  pairXml,
  type AveragesDocument,
  type PairMeta,
  type PairRange,
} from "./render.js";
import { rebaseDay, rebasedHeader } from "../publish/cross.js";
import { daysOf, daysOfAsync, type HistoryDay, type HistoryHeader } from "../publish/render-history.js";
import type { RowsVersion } from "../store/history.js";

export type { PairQuery } from "./read.js";

export type PairResult =
  | { kind: "day"; answer: PairAnswer; version: string }
  | { kind: "range"; range: PairRange; version: string }
  | { kind: "averages"; doc: AveragesDocument; version: string }
  | { kind: "unknown"; unknown: string[] };

/** The band and the minimum of banks of the cross-bank check, as configured (EXRATES_CHECK_*). */
export function pairSettings(env: Readonly<Record<string, string | undefined>> = process.env): PairSettings {
  const { band, minBanks } = crossCheckConfig(env);
  return { band, minBanks };
}

export async function resolvePair(
  store: HistoryStore,
  q: PairQuery & { group?: Group },
  today: IsoDate,
  settings: PairSettings = pairSettings(),
  frequencyOf?: FrequencyLookup,
): Promise<PairResult> {
  const { banks, unknown, periodic } = await banksOf(store, q.banks, frequencyOf);
  if (unknown.length) return { kind: "unknown", unknown };
  if (!q.range) {
    const { days, missing, version } = await readBankDays(store, banks, q, today);
    const answer = pairAcross(days, q.base, q.quote, settings, q.date);
    answer.unpriced.push(...missing, ...periodic);
    answer.unpriced.sort((a, b) => (a.bankId < b.bankId ? -1 : 1));
    return { kind: "day", answer, version };
  }
  const { from, to } = q.range;
  const { byDate, version } = await readRangeDays(store, banks, { ...q, range: q.range });
  const days: PairAnswer[] = [];
  for (const [date, list] of byDate) {
    const day = pairAcross(list, q.base, q.quote, settings, date);
    day.unpriced.push(...periodic);
    days.push(day);
  }
  if (!q.group) return { kind: "range", range: { base: q.base, quote: q.quote, from, to, days }, version };
  const averager = new Averager(q.group, from, to);
  for (const day of days) for (const f of day.figures) averager.add(day.date!, f.bankId, f.rate);
  const doc: AveragesDocument = {
    of: { kind: "pair", base: q.base, quote: q.quote },
    group: q.group,
    from,
    to,
    averages: averager.finish(),
  };
  return { kind: "averages", doc, version };
}

/** The workbook writer (exceljs), loaded only when a spreadsheet is asked for. */
const tableXlsx: typeof import("./xlsx.js").tableXlsx = async (...args) =>
  (await import("./xlsx.js")).tableXlsx(...args);

export type Rendered = { text: string } | { binary: Buffer };
export type PairFormat = "json" | "xml" | "csv" | "xlsx";

/** A resolved pair (or averages) document in a format; `stamp` dates an XLSX package's entries. */
export async function renderPairResult(
  result: Exclude<PairResult, { kind: "unknown" }>,
  format: PairFormat,
  meta: PairMeta,
  stamp: Date,
): Promise<Rendered> {
  if (result.kind === "averages") return renderAverages(result.doc, format, meta, stamp);
  const days = result.kind === "day" ? [result.answer] : result.range.days;
  switch (format) {
    case "json":
      return { text: result.kind === "day" ? pairJson(result.answer, meta) : pairRangeJson(result.range, meta) };
    case "xml":
      return { text: result.kind === "day" ? pairXml(result.answer, meta) : pairRangeXml(result.range, meta) };
    case "csv":
      return { text: csvOf(PAIR_CSV_HEADER, pairRows(days)) };
    case "xlsx":
      return { binary: await tableXlsx("Pair", PAIR_CSV_HEADER, pairRows(days), stamp) };
  }
}

export async function renderAverages(
  doc: AveragesDocument,
  format: PairFormat,
  meta: PairMeta,
  stamp: Date,
): Promise<Rendered> {
  switch (format) {
    case "json":
      return { text: averagesJson(doc, meta) };
    case "xml":
      return { text: averagesXml(doc, meta) };
    case "csv":
      return { text: averagesCsv(doc) };
    case "xlsx": {
      const header = AVERAGE_CSV_HEADER(doc.of.kind === "bank" ? "Currency" : "BankId");
      return { binary: await tableXlsx("Averages", header, averageRows(doc.averages), stamp) };
    }
  }
}

/** A bank's daily range averaged per period (re-expressed against `base` first when asked). */
export interface BankAverageQuery {
  header: HistoryHeader;
  from: IsoDate;
  to: IsoDate;
  group: Group;
  /** Sorted; undefined: every currency. */
  currencies?: readonly string[];
  base?: string;
}

/** The bank's averages, read in one snapshot; `version` names the rows averaged. */
export async function averageBank(
  store: HistoryStore,
  q: BankAverageQuery,
): Promise<{ doc: AveragesDocument; version: RowsVersion }> {
  const { header, from, to, base } = q;
  const id = header.bankId;
  const keep = q.currencies ? new Set(q.currencies) : undefined;
  const read = q.currencies && base && !keep!.has(base) ? [...q.currencies, base].sort() : q.currencies;
  const averager = new Averager(q.group, from, to);
  const add = (day: HistoryDay) => {
    const seen = base ? rebaseDay(header, day, base) : day;
    if (!seen) return;
    for (const r of seen.rows)
      if (!keep || keep.has(r.currency)) averager.add(seen.date, r.currency, r.rate, r.unitMultiplier);
  };
  const snapshot = await store.snapshot();
  try {
    const version = await snapshot.versionOf(id, from, to, read);
    const chunks = snapshot.range(id, from, to, read);
    if (Symbol.asyncIterator in chunks) for await (const day of daysOfAsync(chunks)) add(day);
    else for (const day of daysOf(chunks)) add(day);
    const shown = base ? rebasedHeader(header, base) : header;
    const doc: AveragesDocument = {
      of: {
        kind: "bank",
        bankId: id,
        baseCurrency: shown.baseCurrency,
        quoteType: shown.quoteType,
        ...(base ? { derivedFrom: header.baseCurrency } : {}),
      },
      group: q.group,
      from,
      to,
      averages: averager.finish(),
    };
    return { doc, version };
  } finally {
    snapshot.release();
  }
}
