// Documents of many effective dates (the history endpoints), in the Latest documents' layouts: JSON
// with one key per date in `rates`, XML with one `Rates` element per date (the 1.0 schema allows any
// number), CSV and XLSX with one row per date and currency. All four are produced piece by piece
// from the store's chunks (the XLSX zipped as it goes), so a ten-year range is never held whole; a
// one-date document is byte for byte what the Latest renderers make of the same data. The rate is
// always the stored text.

import type { HistoryRow } from "../store/history.js";
import type { IsoDate, QuoteType } from "../types.js";
import { sourceXml, type SourceJson } from "./provenance.js";
import { csvColumnsOf } from "./render-csv.js";
import { rateCell, WARNINGS_WIDTH } from "./xlsx-cell.js";
import { XML_NAMESPACE } from "./xsd.js";
import { zipStream, zipStreamAsync, type StreamedZipEntry } from "./zip.js";

export interface HistoryHeader {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
  /**
   * A table re-expressed against another of its currencies (`base=`, src/publish/cross.ts): the bank's
   * own base currency and quote type. Absent for the bank's figures, whose documents stay as they are.
   */
  derivedFrom?: { baseCurrency: string; quoteType: QuoteType };
  /** The instant a document "as known at" answers for (RFC 3339, UTC); absent for the current state. */
  asOf?: string;
  /** A period source: its rows carry validFrom/validTo, and the CSV and XLSX have two more columns. */
  periodic?: boolean;
  /**
   * How many of the document's figures were published with a warning (each row's `warning`): with any,
   * CSV and XLSX have the Warnings column. Absent (or 0) for none: the document is as it always was.
   */
  warnings?: number;
}

/** The Derived column's value of a re-expressed table (CSV, XLSX): the base and quote type it was derived from. */
export const derivedLabel = (header: HistoryHeader) =>
  header.derivedFrom ? `${header.derivedFrom.baseCurrency} ${header.derivedFrom.quoteType}` : "";

/** One effective date and its rows, sorted by currency. */
export interface HistoryDay {
  date: IsoDate;
  rows: HistoryRow[];
  /** `?provenance=true`: the bank's answers the figures came from (JSON `provenance`, XML `Source`). */
  sources?: DaySource[];
}

/**
 * A bank's answer or an imported file some figures of a date came from (src/publish/provenance.ts), with
 * the currencies it gave when the date's figures came from more than one.
 */
export type DaySource = SourceJson & { currencies?: string[] };

/** The JSON `provenance` member of a day (after its currencies), or "". */
function jsonSources(day: HistoryDay, comma: boolean): string {
  if (!day.sources) return "";
  const items = day.sources.map((s) => {
    const members = Object.entries(s).map(([name, value]) => `\n          "${name}": ${JSON.stringify(value)}`);
    return `\n        {${members.join(",")}\n        }`;
  });
  return `${comma ? "," : ""}\n      "provenance": [${items.join(",")}\n      ]`;
}

/** The XML `Source` elements of a day, or "". */
const xmlSources = (day: HistoryDay) =>
  (day.sources ?? [])
    .map(
      ({ currencies, ...s }) =>
        `    <Source${sourceXml(s)}${currencies ? ` currencies="${currencies.join(" ")}"` : ""}/>\n`,
    )
    .join("");

/** Groups chunks of rows (sorted by date, then currency) into days; a day may span two chunks. */
export function* daysOf(chunks: Iterable<HistoryRow[]>): Generator<HistoryDay> {
  let day: HistoryDay | undefined;
  for (const chunk of chunks) {
    for (const row of chunk) {
      if (day?.date !== row.effectiveDate) {
        if (day) yield day;
        day = { date: row.effectiveDate, rows: [] };
      }
      day.rows.push(row);
    }
  }
  if (day) yield day;
}

/** daysOf over chunks read asynchronously (PostgreSQL). */
export async function* daysOfAsync(chunks: AsyncIterable<HistoryRow[]>): AsyncGenerator<HistoryDay> {
  let day: HistoryDay | undefined;
  for await (const chunk of chunks) {
    for (const row of chunk) {
      if (day?.date !== row.effectiveDate) {
        if (day) yield day;
        day = { date: row.effectiveDate, rows: [] };
      }
      day.rows.push(row);
    }
  }
  if (day) yield day;
}

const jsonString = (s: string) => JSON.stringify(s);

/**
 * A text document as its opening, one piece per day, and its closing: written by a plain generator over
 * days in memory or read chunk by chunk (SQLite), or by an async one over days read from PostgreSQL.
 */
interface TextLayout {
  head: string;
  /** A day's piece ("" for nothing); `first` for the first day. */
  day(day: HistoryDay, first: boolean): string;
  /** The closing; `empty` when no day came. */
  tail(empty: boolean): string;
}

function* writeText(layout: TextLayout, days: Iterable<HistoryDay>): Generator<string> {
  yield layout.head;
  let first = true;
  for (const day of days) {
    const piece = layout.day(day, first);
    first = false;
    if (piece) yield piece;
  }
  const tail = layout.tail(first);
  if (tail) yield tail;
}

async function* writeTextAsync(layout: TextLayout, days: AsyncIterable<HistoryDay>): AsyncGenerator<string> {
  yield layout.head;
  let first = true;
  for await (const day of days) {
    const piece = layout.day(day, first);
    first = false;
    if (piece) yield piece;
  }
  const tail = layout.tail(first);
  if (tail) yield tail;
}

/** Days as they come: a plain iterable is written by a plain generator, an async one by an async generator. */
function writeTextOf(
  layout: TextLayout,
  days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
): Generator<string> | AsyncGenerator<string> {
  return Symbol.asyncIterator in days ? writeTextAsync(layout, days) : writeText(layout, days);
}

/** A text format's renderer: a plain generator over plain days, an async one over async days. */
export interface TextRenderer {
  (header: HistoryHeader, days: Iterable<HistoryDay>): Generator<string>;
  (header: HistoryHeader, days: AsyncIterable<HistoryDay>): AsyncGenerator<string>;
  (
    header: HistoryHeader,
    days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  ): Generator<string> | AsyncGenerator<string>;
}

/** The renderer of a layout (the overloads say which generator comes for which days). */
const textRenderer = (layoutOf: (header: HistoryHeader) => TextLayout): TextRenderer =>
  ((header: HistoryHeader, days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>) =>
    writeTextOf(layoutOf(header), days)) as TextRenderer;

/** JSON, two-space indentation as Latest.json: each rate the JSON number whose text is the stored decimal. */
function jsonLayout(header: HistoryHeader): TextLayout {
  return {
    head:
      `{\n  "bankId": ${jsonString(header.bankId)},\n  "baseCurrency": ${jsonString(header.baseCurrency)},\n  "quoteType": ${jsonString(header.quoteType)},\n` +
      (header.derivedFrom
        ? `  "derivedFrom": {\n    "baseCurrency": ${jsonString(header.derivedFrom.baseCurrency)},\n    "quoteType": ${jsonString(header.derivedFrom.quoteType)}\n  },\n`
        : "") +
      (header.asOf ? `  "asOf": ${jsonString(header.asOf)},\n` : "") +
      `  "rates": {`,
    day(day, first) {
      let out = `${first ? "" : ","}\n    ${jsonString(day.date)}: {`;
      let warnings = "";
      day.rows.forEach((r, i) => {
        const unit = r.unitMultiplier ? `,\n        "unitMultiplier": ${r.unitMultiplier}` : "";
        const validity = r.validFrom
          ? `,\n        "validFrom": "${r.validFrom}",\n        "validTo": "${r.validTo}"`
          : "";
        out += `${i ? "," : ""}\n      ${jsonString(r.currency)}: {\n        "rate": ${r.rate}${unit}${validity}\n      }`;
        if (r.warning !== undefined)
          warnings += `${warnings ? "," : ""}\n        ${jsonString(r.currency)}: ${jsonString(r.warning)}`;
      });
      // The date's figures published with a warning, after its currencies (as Latest.json has them).
      if (warnings) out += `,\n      "warnings": {${warnings}\n      }`;
      out += jsonSources(day, day.rows.length > 0);
      return day.rows.length || day.sources ? `${out}\n    }` : `${out}}`;
    },
    tail: (empty) => (empty ? "}\n}\n" : "\n  }\n}\n"),
  };
}

export const historyJson = textRenderer(jsonLayout);

const xmlAttr = (s: string) =>
  /[&<>"]/.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;") : s;

/** XML in the exrates 1.0 namespace: one `Rates` element per date, valid against the published XSD. */
function xmlLayout(header: HistoryHeader): TextLayout {
  return {
    head: `<?xml version="1.0" encoding="UTF-8"?>\n<ExchangeRates xmlns="${XML_NAMESPACE}"${xmlDerived(header)}>\n  <BankId>${xmlAttr(header.bankId)}</BankId>\n  <BaseCurrency>${xmlAttr(header.baseCurrency)}</BaseCurrency>\n  <QuoteType>${header.quoteType}</QuoteType>\n${header.asOf ? `  <AsOf>${header.asOf}</AsOf>\n` : ""}`,
    day(day) {
      if (!day.rows.length) return `  <Rates effectiveDate="${day.date}"/>\n`;
      let out = `  <Rates effectiveDate="${day.date}">\n`;
      for (const r of day.rows) {
        const unit = r.unitMultiplier ? ` unitMultiplier="${r.unitMultiplier}"` : "";
        const validity = r.validFrom ? ` validFrom="${r.validFrom}" validTo="${r.validTo}"` : "";
        const warning = r.warning !== undefined ? ` warning="${xmlAttr(r.warning)}"` : "";
        out += `    <Rate currency="${xmlAttr(r.currency)}" value="${xmlAttr(r.rate)}"${unit}${validity}${warning}/>\n`;
      }
      return `${out}${xmlSources(day)}  </Rates>\n`;
    },
    tail: () => "</ExchangeRates>\n",
  };
}

export const historyXml = textRenderer(xmlLayout);

/** The root's attributes of a re-expressed table ("" for the bank's own figures). */
const xmlDerived = (header: HistoryHeader) =>
  header.derivedFrom
    ? ` derivedFromBaseCurrency="${xmlAttr(header.derivedFrom.baseCurrency)}" derivedFromQuoteType="${header.derivedFrom.quoteType}"`
    : "";

type CsvRow = [string, string, string, string, string, string, ...string[]];

function csvRows(header: HistoryHeader, day: HistoryDay): CsvRow[] {
  return day.rows.map((r) => {
    const [from, to] =
      header.quoteType === "Direct" ? [r.currency, header.baseCurrency] : [header.baseCurrency, r.currency];
    const row: CsvRow = [header.bankId, from, to, day.date, r.rate, `1${"0".repeat(r.unitMultiplier)}`];
    if (header.periodic) row.push(r.validFrom ?? "", r.validTo ?? "");
    if (header.warnings) row.push(r.warning ?? "");
    if (header.derivedFrom) row.push(derivedLabel(header));
    return row;
  });
}

/** A CSV field as csv-stringify writes it (Latest.csv): quoted only when it holds a quote, comma or line break. */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** CSV with Latest.csv's header and columns, one row per date and currency. */
function csvLayout(header: HistoryHeader): TextLayout {
  // The bank and base fields are the same on every row: quoted once.
  const bank = csvField(header.bankId);
  const base = csvField(header.baseCurrency);
  const direct = header.quoteType === "Direct";
  const derived = header.derivedFrom ? `,${csvField(derivedLabel(header))}` : "";
  const warned = Boolean(header.warnings);
  return {
    head: `${csvHeader(header).map(csvField).join(",")}\n`,
    day(day) {
      let out = "";
      const date = csvField(day.date);
      for (const r of day.rows) {
        const currency = csvField(r.currency);
        const pair = direct ? `${currency},${base}` : `${base},${currency}`;
        const validity = header.periodic ? `,${r.validFrom ?? ""},${r.validTo ?? ""}` : "";
        const warning = warned ? `,${csvField(r.warning ?? "")}` : "";
        out += `${bank},${pair},${date},${csvField(r.rate)},1${"0".repeat(r.unitMultiplier)}${validity}${warning}${derived}\n`;
      }
      return out;
    },
    tail: () => "",
  };
}

export const historyCsv = textRenderer(csvLayout);

/**
 * The CSV and XLSX header: Latest.csv's columns, a period source's validity after Unit, Warnings when a
 * figure has one, and Derived last for a re-expressed table.
 */
const csvHeader = (header: HistoryHeader): readonly string[] => [
  ...csvColumnsOf(Boolean(header.periodic), Boolean(header.warnings)),
  ...(header.derivedFrom ? ["Derived"] : []),
];

export interface HistoryXlsxMeta {
  bankName: string;
  website: string;
  from: IsoDate;
  to: IsoDate;
  /** The newest stored_at of the rows: the zip entries' timestamp, so the bytes depend on the data only. */
  storedAt: string;
}

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const COLUMNS = "ABCDEFGHIJ";
const WIDTHS = [10, 15, 13, 15, 18, 10];
const VALIDITY_WIDTH = 12;
const DERIVED_WIDTH = 14;
/** Cell styles: 0 plain, 1 bold, 2 date, 3 integer; 4 + n a rate with n decimals (n = 0..30). */
const STYLE = { bold: 1, date: 2, integer: 3, rate: (decimals: number) => 4 + decimals };
const MAX_DECIMALS = 30;

function stylesXml(): string {
  const numFmts = ['<numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>', '<numFmt numFmtId="165" formatCode="0"/>'];
  for (let n = 1; n <= MAX_DECIMALS; n++)
    numFmts.push(`<numFmt numFmtId="${165 + n}" formatCode="0.${"0".repeat(n)}"/>`);
  const xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
  ];
  for (let n = 0; n <= MAX_DECIMALS; n++)
    xfs.push(`<xf numFmtId="${165 + n}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`);
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<numFmts count="${numFmts.length}">${numFmts.join("")}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    "</styleSheet>"
  );
}

const inline = (ref: string, text: string, style = 0) =>
  `<c r="${ref}"${style ? ` s="${style}"` : ""} t="inlineStr"><is><t>${xmlText(text)}</t></is></c>`;

/** A worksheet part up to and including `<sheetData>`: the rows and the closing tags follow. */
function sheetHead(options: { frozen?: boolean; widths: number[] }): string {
  const view = options.frozen
    ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'
    : '<sheetViews><sheetView workbookViewId="0"/></sheetViews>';
  const cols = options.widths
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
    .join("");
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `${view}<cols>${cols}</cols><sheetData>`
  );
}

const PACKAGE_FILES = {
  "[Content_Types].xml":
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  "_rels/.rels":
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  "xl/_rels/workbook.xml.rels":
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
};

/**
 * XLSX with Latest.xlsx's sheets and cells: "Rates" (bold frozen header with an autofilter, one row per
 * date and currency, a real date cell, the rate a number shown with its own decimals, or text when a
 * double cannot carry it, an integer unit) and "Bank". The sheet XML is written directly (a year of a
 * 40-currency bank in a tenth of the time a workbook library takes), the rate as its stored text, and
 * zipped as it is written (src/publish/zip.ts): the rows are read from `days` while the bytes go
 * out, so a ten-year range is never held whole. The workbook part, which names the last row, comes
 * after the sheet. The zip entries carry the data's own timestamp, so the bytes depend on the data only.
 */
export function historyXlsxStream(
  header: HistoryHeader,
  days: Iterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): Generator<Buffer>;
export function historyXlsxStream(
  header: HistoryHeader,
  days: AsyncIterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): AsyncGenerator<Buffer>;
export function historyXlsxStream(
  header: HistoryHeader,
  days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): Generator<Buffer> | AsyncGenerator<Buffer>;
export function historyXlsxStream(
  header: HistoryHeader,
  days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): Generator<Buffer> | AsyncGenerator<Buffer> {
  const stamp = new Date(meta.storedAt || `${meta.to}T00:00:00Z`);
  const headings = csvHeader(header);
  const last = COLUMNS[headings.length - 1]!;
  const widths = [
    ...WIDTHS,
    ...(header.periodic ? [VALIDITY_WIDTH, VALIDITY_WIDTH] : []),
    ...(header.warnings ? [WARNINGS_WIDTH] : []),
    ...(header.derivedFrom ? [DERIVED_WIDTH] : []),
  ];
  const serialOf = (date: IsoDate) => {
    const [y, m, d] = date.split("-").map(Number) as [number, number, number];
    return (Date.UTC(y, m - 1, d) - EXCEL_EPOCH) / 86_400_000;
  };
  let r = 1;
  // The Rates sheet as a text layout (its rows numbered as they go), written from days in memory or read
  // asynchronously.
  const layout: TextLayout = {
    head:
      sheetHead({ frozen: true, widths }) +
      `<row r="1">${headings.map((h, i) => inline(`${COLUMNS[i]}1`, h, STYLE.bold)).join("")}</row>`,
    day(day) {
      const serial = serialOf(day.date);
      let out = "";
      for (const [bankId, from, to, , rate, unit, ...more] of csvRows(header, day)) {
        const [validFrom, validTo] = header.periodic ? more : [];
        const rest = header.periodic ? more.slice(2) : more;
        r++;
        const cell = rateCell(rate);
        const decimals = rate.split(".")[1]?.length ?? 0;
        const rateXml =
          typeof cell.value === "number" && decimals <= MAX_DECIMALS
            ? `<c r="E${r}" s="${STYLE.rate(decimals)}"><v>${rate}</v></c>`
            : inline(`E${r}`, rate);
        out +=
          `<row r="${r}">${inline(`A${r}`, bankId)}${inline(`B${r}`, from)}${inline(`C${r}`, to)}` +
          `<c r="D${r}" s="${STYLE.date}"><v>${serial}</v></c>${rateXml}<c r="F${r}" s="${STYLE.integer}"><v>${unit}</v></c>` +
          (validFrom && validTo
            ? `<c r="G${r}" s="${STYLE.date}"><v>${serialOf(validFrom)}</v></c><c r="H${r}" s="${STYLE.date}"><v>${serialOf(validTo)}</v></c>`
            : "") +
          `${rest.map((text, i) => (text ? inline(`${COLUMNS[(header.periodic ? 8 : 6) + i]}${r}`, text) : "")).join("")}</row>`;
      }
      return out;
    },
    tail: () => `</sheetData><autoFilter ref="A1:${last}${r}"/></worksheet>`,
  };
  function* workbook(): Generator<string> {
    yield '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Rates" sheetId="1" r:id="rId1"/><sheet name="Bank" sheetId="2" r:id="rId2"/></sheets>';
    yield `<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Rates!$A$1:$${last}$${r}</definedName></definedNames></workbook>`;
  }
  const info = [
    ["Id", header.bankId],
    ["Name", meta.bankName],
    ["Base Currency", header.baseCurrency],
    ["Quote Type", header.quoteType],
    ["From", meta.from],
    ["To", meta.to],
    ["Stored At", meta.storedAt],
    ["Website", meta.website],
    ...(header.derivedFrom ? [["Derived From", derivedLabel(header)]] : []),
  ]
    .map(([k, v], i) => `<row r="${i + 1}">${inline(`A${i + 1}`, k!, STYLE.bold)}${inline(`B${i + 1}`, v!)}</row>`)
    .join("");
  const entries = (rates: Iterable<string> | AsyncIterable<string>) => [
    ...Object.entries(PACKAGE_FILES).map(([name, data]) => ({ name, data })),
    { name: "xl/styles.xml", data: stylesXml() },
    { name: "xl/worksheets/sheet2.xml", data: `${sheetHead({ widths: [16, 60] })}${info}</sheetData></worksheet>` },
    { name: "xl/worksheets/sheet1.xml", data: rates },
    { name: "xl/workbook.xml", data: workbook() },
  ];
  if (Symbol.asyncIterator in days) return zipStreamAsync(entries(writeTextAsync(layout, days)), stamp);
  return zipStream(entries(writeText(layout, days)) as StreamedZipEntry[], stamp);
}

/** historyXlsxStream's bytes, whole: for a short document (one date, a filtered Latest). */
export function historyXlsxBytes(header: HistoryHeader, days: Iterable<HistoryDay>, meta: HistoryXlsxMeta): Buffer {
  return Buffer.concat([...historyXlsxStream(header, days, meta)]);
}

/** historyXlsxBytes, as a promise. */
export function historyXlsx(header: HistoryHeader, days: Iterable<HistoryDay>, meta: HistoryXlsxMeta): Promise<Buffer> {
  return Promise.resolve(historyXlsxBytes(header, days, meta));
}
