// A pair's answer (one date, or every date of a range) and averages of a period in JSON, XML (the
// exrates 1.0 namespace, valid against the published XSD), CSV and XLSX. Every figure is its decimal
// text (a string in JSON); every derived one says its digits and rounding rule.
import { XML_NAMESPACE } from "../publish/xsd.js";
import type { PeriodAverage } from "./average.js";
import { AVERAGE_DIGITS, AVERAGE_ROUNDING } from "./average.js";
import { PAIR_DIGITS, PAIR_ROUNDING, type Judged, type PairAnswer } from "./pair.js";

/** What a document says of itself beside its figures. */
export interface PairMeta {
  /** The instant of `asOf=`, when asked. */
  asOf?: string;
}

/** A range of a pair: each date with a figure of some bank, the banks' figures published that day. */
export interface PairRange {
  base: string;
  quote: string;
  from: string;
  to: string;
  days: PairAnswer[];
}

/** Averages of a period: of a bank's currencies (`key` a currency) or of a pair's banks (`key` a bank). */
export interface AveragesDocument {
  /** `bank`: a bank's table (base currency, maybe re-expressed); `pair`: one pair across banks. */
  of:
    | { kind: "bank"; bankId: string; baseCurrency: string; quoteType: string; derivedFrom?: string }
    | { kind: "pair"; base: string; quote: string };
  group: string;
  from: string;
  to: string;
  averages: PeriodAverage[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const attrs = (pairs: Record<string, string | number | boolean | undefined>) =>
  Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join("");

function figureJson(f: Judged) {
  return {
    bankId: f.bankId,
    rate: f.rate,
    effectiveDate: f.effectiveDate,
    ...(f.publishedAt ? { publishedAt: f.publishedAt } : {}),
    quote: f.quote,
    derived: f.derived,
    through: f.through,
    from: f.from,
    ...(f.rounding ? { rounding: f.rounding } : {}),
    sameDay: f.sameDay,
    outlier: f.outlier,
    ...(f.reason ? { reason: f.reason } : {}),
  };
}

function answerJson(a: PairAnswer) {
  return {
    ...(a.date ? { date: a.date } : {}),
    ...(a.consensus ? { consensus: a.consensus } : {}),
    banks: a.figures.map(figureJson),
    ...(a.unpriced.length ? { unpriced: a.unpriced } : {}),
  };
}

const ROUNDING = { digits: PAIR_DIGITS, rule: PAIR_ROUNDING };

export function pairJson(a: PairAnswer, meta: PairMeta): string {
  const doc = {
    base: a.base,
    quote: a.quote,
    ...(meta.asOf ? { asOf: meta.asOf } : {}),
    rounding: ROUNDING,
    ...answerJson(a),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function pairRangeJson(r: PairRange, meta: PairMeta): string {
  const doc = {
    base: r.base,
    quote: r.quote,
    from: r.from,
    to: r.to,
    ...(meta.asOf ? { asOf: meta.asOf } : {}),
    rounding: ROUNDING,
    days: r.days.map(answerJson),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function figureXml(f: Judged): string {
  const head = attrs({
    bankId: f.bankId,
    rate: f.rate,
    effectiveDate: f.effectiveDate,
    publishedAt: f.publishedAt,
    quote: f.quote,
    derived: f.derived,
    through: f.through,
    digits: f.rounding?.digits,
    rounding: f.rounding?.rule,
    sameDay: f.sameDay,
    outlier: f.outlier,
    reason: f.reason,
  });
  const from = f.from.map(
    (u) => `      <From${attrs({ currency: u.currency, value: u.rate, unit: u.unit, reads: u.reads })}/>\n`,
  );
  return `    <Figure${head}>\n${from.join("")}    </Figure>\n`;
}

function answerXml(a: PairAnswer, tag: string, top: Record<string, string | undefined>): string {
  const c = a.consensus;
  const consensus = c
    ? `    <Consensus${attrs({ date: c.date, banks: c.banks, median: c.median, min: c.min, max: c.max, dispersion: c.dispersion, band: c.band, minBanks: c.minBanks })}/>\n`
    : "";
  const outliers = c?.outliers.map((id) => `    <Outlier bankId="${esc(id)}"/>\n`).join("") ?? "";
  const unpriced = a.unpriced.map((u) => `    <Unpriced${attrs({ bankId: u.bankId, reason: u.reason })}/>\n`).join("");
  return `  <${tag}${attrs({ ...top, date: a.date })}>\n${consensus}${outliers}${a.figures.map(figureXml).join("")}${unpriced}  </${tag}>\n`;
}

const rootAttrs = (base: string, quote: string, meta: PairMeta, more: Record<string, string> = {}) =>
  attrs({ base, quote, ...more, asOf: meta.asOf, digits: PAIR_DIGITS, rounding: PAIR_ROUNDING });

export function pairXml(a: PairAnswer, meta: PairMeta): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<PairRates xmlns="${XML_NAMESPACE}"${rootAttrs(a.base, a.quote, meta)}>\n${answerXml(a, "Day", {})}</PairRates>\n`;
}

export function pairRangeXml(r: PairRange, meta: PairMeta): string {
  const days = r.days.map((d) => answerXml(d, "Day", {})).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<PairRates xmlns="${XML_NAMESPACE}"${rootAttrs(r.base, r.quote, meta, { from: r.from, to: r.to })}>\n${days}</PairRates>\n`;
}

export const PAIR_CSV_HEADER = [
  "Date",
  "Base",
  "Quote",
  "Row",
  "BankId",
  "Rate",
  "Effective Date",
  "Published At",
  "Quote Kind",
  "Derived",
  "Through",
  "Figures",
  "Same Day",
  "Outlier",
  "Reason",
  "Banks",
  "Min",
  "Max",
  "Dispersion",
] as const;

/** The table of a pair's days: one row per bank's figure, then the day's consensus (Rate: the median). */
export function pairRows(days: readonly PairAnswer[]): string[][] {
  const rows: string[][] = [];
  for (const a of days) {
    const date = a.date ?? a.consensus?.date ?? "";
    for (const f of a.figures) {
      const figures = f.from.map((u) => `${u.rate} ${u.reads}`).join("; ");
      rows.push([
        date,
        a.base,
        a.quote,
        "bank",
        f.bankId,
        f.rate,
        f.effectiveDate,
        f.publishedAt,
        f.quote,
        String(f.derived),
        f.through,
        figures,
        String(f.sameDay),
        String(f.outlier),
        f.reason ?? "",
        "",
        "",
        "",
        "",
      ]);
    }
    const c = a.consensus;
    if (c)
      rows.push([
        date,
        a.base,
        a.quote,
        "consensus",
        "",
        c.median,
        c.date,
        "",
        "median",
        "true",
        "",
        "",
        "true",
        c.outliers.join(" "),
        "",
        String(c.banks),
        c.min,
        c.max,
        c.dispersion,
      ]);
  }
  return rows;
}

export const AVERAGE_CSV_HEADER = (key: string) =>
  [
    "Period",
    "Start",
    "End",
    "Partial",
    key,
    "Mean",
    "Exact",
    "Digits",
    "Rounding",
    "Sum",
    "Days",
    "First",
    "Last",
    "Min",
    "Max",
    "End Of Period",
  ] as const;

export function averageRows(averages: readonly PeriodAverage[]): string[][] {
  return averages.map((a) => [
    a.period,
    a.start,
    a.end,
    String(a.partial),
    a.key,
    a.mean,
    String(a.exact),
    String(a.digits),
    a.rounding,
    a.sum,
    String(a.days),
    a.first,
    a.last,
    a.min,
    a.max,
    a.endOfPeriod,
  ]);
}

const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** CSV (RFC 4180, LF). */
export function csvOf(header: readonly string[], rows: readonly string[][]): string {
  return [header, ...rows].map((r) => r.map(field).join(",")).join("\n") + "\n";
}

const keyName = (doc: AveragesDocument) => (doc.of.kind === "bank" ? "currency" : "bankId");

/** One average as JSON: its series under `currency` or `bankId`; the digits and rule are the document's. */
function averageJson(a: PeriodAverage, key: string) {
  const { key: series, digits, rounding, ...rest } = a;
  void digits;
  void rounding;
  return { [key]: series, ...rest };
}

export function averagesJson(doc: AveragesDocument, meta: PairMeta): string {
  const key = keyName(doc);
  const { kind, ...of } = doc.of;
  const body = {
    ...of,
    ...(meta.asOf ? { asOf: meta.asOf } : {}),
    group: doc.group,
    from: doc.from,
    to: doc.to,
    unit: 1,
    rounding: { digits: AVERAGE_DIGITS, rule: AVERAGE_ROUNDING },
    ...(kind === "pair" ? { note: "each bank's daily figure of the pair, averaged" } : {}),
    averages: doc.averages.map((a) => averageJson(a, key)),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

export function averagesXml(doc: AveragesDocument, meta: PairMeta): string {
  const key = keyName(doc);
  const { kind, ...of } = doc.of;
  const head = attrs({
    ...of,
    asOf: meta.asOf,
    group: doc.group,
    from: doc.from,
    to: doc.to,
    digits: AVERAGE_DIGITS,
    rounding: AVERAGE_ROUNDING,
  });
  if (kind !== "bank" && kind !== "pair") throw new Error(`unknown averages of ${String(kind)}`);
  const rows = doc.averages.map(
    (a) =>
      `  <Average${attrs({ period: a.period, start: a.start, end: a.end, partial: a.partial, [key]: a.key, mean: a.mean, exact: a.exact, sum: a.sum, days: a.days, first: a.first, last: a.last, min: a.min, max: a.max, endOfPeriod: a.endOfPeriod })}/>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Averages xmlns="${XML_NAMESPACE}"${head}>\n${rows.join("")}</Averages>\n`;
}

export function averagesCsv(doc: AveragesDocument): string {
  return csvOf(AVERAGE_CSV_HEADER(doc.of.kind === "bank" ? "Currency" : "BankId"), averageRows(doc.averages));
}
