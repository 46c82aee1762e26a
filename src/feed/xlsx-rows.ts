// Reading a large XLSX workbook row by row, in bounded memory: the sheet's XML is inflated from the zip
// in chunks and each `<row>` is read and dropped before the next, instead of building the whole
// workbook's cell model first (exceljs's `load`, ~100x the file's size for a long daily history). For
// whole-history files read daily (RBNZ's B1 series, the Bank of Albania's yearly archive). Numbers are
// read as spreadsheet.ts reads them (numberText, excelSerialDate): the same exact text either way.
import { Readable } from "node:stream";

import { XMLParser } from "fast-xml-parser";
import JSZip from "jszip";

import { FeedError } from "../errors.js";
import type { IsoDate } from "../types.js";
import { looksLikeHtml } from "./body.js";
import { readDecimal } from "./decimal.js";
import { excelSerialDate, formatDecimals, numberText, type NumberReading } from "./spreadsheet.js";

/** One cell as stored: its text (a shared or inline string, a formula's cached value) and its number. */
export interface StreamedCell {
  /** 0-based column (A is 0). */
  column: number;
  /** The cell's text: a string, or the number as written in the XML; "" for an empty cell. */
  text: string;
  /** The number a numeric cell (or a formula's numeric result) holds. */
  number?: number;
  /** The cell's number format (`#,##0.00000`, `dd\ mmm\ yyyy`), when it has one. */
  numFmt?: string;
}

/** One row: its 1-based number and its cells, by column. */
export interface StreamedRow {
  row: number;
  cells: ReadonlyMap<number, StreamedCell>;
}

export interface StreamedWorkbook {
  /** The sheets' names, in the workbook's order. */
  sheetNames: string[];
  /** The rows of a sheet, one at a time, in the file's order. */
  rows(sheetName: string): AsyncGenerator<StreamedRow>;
}

/** Excel's built-in number formats that show decimals or dates (the others read as General). */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = {
  1: "0",
  2: "0.00",
  3: "#,##0",
  4: "#,##0.00",
  9: "0%",
  10: "0.00%",
  14: "mm-dd-yy",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  22: "m/d/yy h:mm",
  37: "#,##0 ;(#,##0)",
  38: "#,##0 ;[Red](#,##0)",
  39: "#,##0.00;(#,##0.00)",
  40: "#,##0.00;[Red](#,##0.00)",
};

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ["sheet", "Relationship", "numFmt", "xf"].includes(name),
});

type Node = Record<string, unknown>;
const nodes = (x: unknown): Node[] => (Array.isArray(x) ? (x as Node[]) : []);

/** XML text with its entities (and OOXML's `_xHHHH_` escapes) decoded. */
export function xmlText(raw: string): string {
  if (!raw.includes("&") && !raw.includes("_x")) return raw;
  return raw
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&(#x[0-9A-Fa-f]+|#\d+|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
      if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
      if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
      return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e]!;
    });
}

/** The text of an `<si>` or `<is>`: every `<t>` run, phonetic runs (`<rPh>`) left out. */
function runsText(inner: string): string {
  return [...inner.replace(/<rPh\b[\s\S]*?<\/rPh>/g, "").matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)]
    .map((m) => xmlText(m[1]!))
    .join("");
}

/** A1-style column letters to a 0-based index. */
function columnOf(ref: string): number | undefined {
  const letters = /^([A-Z]+)\d*$/.exec(ref)?.[1];
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const ROW_NUMBER = /\sr="(\d+)"/;
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const CELL_ATTRIBUTE = /\s([rst])="([^"]*)"/g;
const VALUE = /<v>([\s\S]*?)<\/v>/;

/** The cells of one `<row>` element's inner XML. */
function readCells(inner: string, strings: readonly string[], formats: readonly (string | undefined)[]) {
  const cells = new Map<number, StreamedCell>();
  let next = 0;
  for (const m of inner.matchAll(CELL)) {
    const body = m[2] ?? "";
    let ref: string | undefined;
    let type = "n";
    let style = 0;
    for (const a of m[1]!.matchAll(CELL_ATTRIBUTE)) {
      if (a[1] === "r") ref = a[2];
      else if (a[1] === "t") type = a[2]!;
      else style = Number(a[2]);
    }
    const column = (ref === undefined ? undefined : columnOf(ref)) ?? next;
    next = column + 1;
    const value = body === "" ? undefined : VALUE.exec(body)?.[1];
    let text = "";
    let number: number | undefined;
    if (type === "s") text = strings[Number(value)] ?? "";
    else if (type === "inlineStr") text = runsText(body);
    else if (value !== undefined) text = xmlText(value);
    const cell: StreamedCell = { column, text };
    if (type === "n" && text !== "" && Number.isFinite((number = Number(text)))) cell.number = number;
    const numFmt = formats[style];
    if (numFmt !== undefined) cell.numFmt = numFmt;
    cells.set(column, cell);
  }
  return cells;
}

/** An entry's text, inflated chunk by chunk. */
async function* entryText(entry: JSZip.JSZipObject): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const stream = new Readable().wrap(entry.nodeStream("nodebuffer"));
  for await (const chunk of stream) yield decoder.decode(chunk as Buffer, { stream: true });
  yield decoder.decode();
}

/**
 * The complete `name` elements (`<name ...>...</name>` or `<name .../>`) of an XML text given in chunks, one
 * at a time: each is yielded as soon as its end has arrived, and dropped from the buffer.
 */
export async function* xmlElements(
  chunks: AsyncIterable<string>,
  name: string,
): AsyncGenerator<{ tag: string; inner: string }> {
  const open = `<${name}`;
  const close = `</${name}>`;
  let buffer = "";
  for await (const chunk of chunks) {
    buffer += chunk;
    let at = 0;
    for (;;) {
      const start = buffer.indexOf(open, at);
      if (start < 0) {
        at = Math.max(at, buffer.length - open.length); // the tail may be the start of the next one
        break;
      }
      const after = buffer[start + open.length];
      const tagEnd = buffer.indexOf(">", start);
      const end = tagEnd < 0 ? -1 : buffer.indexOf(close, tagEnd);
      if (after === undefined || tagEnd < 0) {
        at = start; // wait for the rest of the tag
        break;
      }
      if (!/[\s/>]/.test(after)) {
        at = start + 1; // another element whose name starts alike (<rowBreaks>)
        continue;
      }
      const tag = buffer.slice(start, tagEnd + 1);
      if (tag.endsWith("/>")) {
        yield { tag, inner: "" };
        at = tagEnd + 1;
      } else if (end >= 0) {
        yield { tag, inner: buffer.slice(tagEnd + 1, end) };
        at = end + close.length;
      } else {
        at = start; // wait for the end of the element
        break;
      }
    }
    buffer = buffer.slice(at);
  }
}

async function entryXml(bankId: string, zip: JSZip, path: string): Promise<Node> {
  const entry = zip.file(path);
  if (!entry) throw new FeedError(bankId, `the XLSX workbook has no ${path}`);
  return xml.parse(await entry.async("string")) as Node;
}

/** Each sheet's name and the path of its XML in the zip. */
async function sheetPaths(bankId: string, zip: JSZip): Promise<Map<string, string>> {
  const workbook = (await entryXml(bankId, zip, "xl/workbook.xml")).workbook as Node | undefined;
  const rels = (await entryXml(bankId, zip, "xl/_rels/workbook.xml.rels")).Relationships as Node | undefined;
  const targets = new Map(nodes(rels?.Relationship).map((r) => [String(r["@Id"]), String(r["@Target"])]));
  const out = new Map<string, string>();
  for (const sheet of nodes((workbook?.sheets as Node | undefined)?.sheet)) {
    const target = targets.get(String(sheet["@r:id"]));
    if (target === undefined) continue;
    out.set(String(sheet["@name"]), target.startsWith("/") ? target.slice(1) : `xl/${target.replace(/^\.\//, "")}`);
  }
  if (out.size === 0) throw new FeedError(bankId, "the XLSX workbook has no sheets");
  return out;
}

/** The number format of each cell style (cellXfs), by style index. */
async function cellFormats(zip: JSZip): Promise<Array<string | undefined>> {
  const entry = zip.file("xl/styles.xml");
  if (!entry) return [];
  const styles = (xml.parse(await entry.async("string")) as Node).styleSheet as Node | undefined;
  const custom = new Map(
    nodes((styles?.numFmts as Node | undefined)?.numFmt).map((f) => [Number(f["@numFmtId"]), String(f["@formatCode"])]),
  );
  return nodes((styles?.cellXfs as Node | undefined)?.xf).map((xf) => {
    const id = Number(xf["@numFmtId"] ?? 0);
    return custom.get(id) ?? BUILT_IN_FORMATS[id];
  });
}

/** The shared strings, in order (kept whole: a workbook's table of its distinct texts). */
async function sharedStrings(zip: JSZip): Promise<string[]> {
  const entry = zip.file("xl/sharedStrings.xml");
  if (!entry) return [];
  const out: string[] = [];
  for await (const { inner } of xmlElements(entryText(entry), "si")) out.push(runsText(inner));
  return out;
}

/** Opens an XLSX body for reading row by row; an empty, HTML or malformed body is a FeedError. */
export async function openXlsxRows(bankId: string, body: Uint8Array): Promise<StreamedWorkbook> {
  if (body.length === 0) throw new FeedError(bankId, "empty body where an XLSX workbook was expected");
  const head = Buffer.from(body.subarray(0, 512)).toString("latin1");
  if (looksLikeHtml(head) || /^\s*</.test(head)) {
    throw new FeedError(bankId, "an HTML page where an XLSX workbook was expected (an error or WAF page?)");
  }
  if (body[0] !== 0x50 || body[1] !== 0x4b)
    throw new FeedError(bankId, "not an XLSX workbook (unexpected leading bytes)");
  let zip: JSZip;
  let paths: Map<string, string>;
  let strings: string[];
  let formats: Array<string | undefined>;
  try {
    zip = await JSZip.loadAsync(body);
    paths = await sheetPaths(bankId, zip);
    strings = await sharedStrings(zip);
    formats = await cellFormats(zip);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(bankId, `malformed or truncated XLSX workbook (${(error as Error).message})`, { cause: error });
  }
  return {
    sheetNames: [...paths.keys()],
    async *rows(sheetName) {
      const path = paths.get(sheetName);
      const entry = path === undefined ? null : zip.file(path);
      if (!entry) throw new FeedError(bankId, `the XLSX workbook has no sheet "${sheetName}"`);
      let previous = 0;
      try {
        for await (const { tag, inner } of xmlElements(entryText(entry), "row")) {
          const row = Number(ROW_NUMBER.exec(tag)?.[1] ?? previous + 1);
          previous = row;
          yield { row, cells: readCells(inner, strings, formats) };
        }
      } catch (error) {
        if (error instanceof FeedError) throw error;
        throw new FeedError(bankId, `malformed or truncated XLSX sheet "${sheetName}" (${(error as Error).message})`, {
          cause: error,
        });
      }
    },
  };
}

const shown = new Map<string, number | undefined>();
/** formatDecimals, once per format. */
function shownDecimals(numFmt: string | undefined): number | undefined {
  if (numFmt === undefined) return undefined;
  if (!shown.has(numFmt)) shown.set(numFmt, formatDecimals(numFmt));
  return shown.get(numFmt);
}

const PLAIN_NUMBER = /^(\d+)(?:\.(\d+))?$/;

/**
 * numberText's `stored` reading without decimal arithmetic, for the common case of a number whose shortest
 * text (`String(value)`: 0.7095 for the XML's 0.70950000000000002) is plain and of at most 15 significant
 * digits, which are then the value's; undefined otherwise (numberText decides).
 */
function plainStored(text: string, numFmt: string | undefined): string | undefined {
  const m = PLAIN_NUMBER.exec(text);
  if (!m) return undefined;
  const int = m[1]!.replace(/^0+(?=\d)/, "");
  const frac = (m[2] ?? "").replace(/0+$/, "");
  const significant = int === "0" ? frac.replace(/^0+/, "").length : int.length + frac.length;
  if (significant > 15) return undefined;
  const places = shownDecimals(numFmt);
  const decimals = places !== undefined && frac.length < places ? frac.padEnd(places, "0") : frac;
  return decimals === "" ? int : `${int}.${decimals}`;
}

/** A rate cell as exact decimal text (spreadsheet.ts's reading of numbers); undefined for an empty or non-numeric cell. */
export function streamedDecimal(cell: StreamedCell | undefined, reading: NumberReading = "stored"): string | undefined {
  if (!cell) return undefined;
  if (cell.number !== undefined) {
    return (
      (reading === "stored" ? plainStored(String(cell.number), cell.numFmt) : undefined) ??
      numberText(cell.number, cell.numFmt, reading)
    );
  }
  return readDecimal(cell.text.trim(), { thousands: "," });
}

/** A date cell (an Excel serial) as ISO; undefined otherwise. */
export function streamedDate(cell: StreamedCell | undefined): IsoDate | undefined {
  return cell?.number === undefined ? undefined : excelSerialDate(cell.number);
}
