// Reading an XLSX workbook in bounded memory: the zip through archive.ts (sizes checked before any
// inflation), the small parts (workbook, relationships, styles) whole, and the shared strings and each
// worksheet as a stream of XML scanned element by element, keeping only the cells that hold a value
// (workbook.ts packs them). A sheet's declared used range is never visited, so 65,536 formatted empty
// rows or a range of A1:XFD1048576 cost what their values cost. Element names are matched without
// their namespace prefix (`<x:c>` from some writers), in the transitional and strict schemas alike.
import { TextDecoder } from "node:util";

import { FeedError } from "../errors.js";
import { ZipArchive, type ZipPart } from "./archive.js";
import { Kind, PackedWorkbook, SheetBuilder, type StyleTable, type Workbook, type Worksheet } from "./workbook.js";

const MAX_ROW = 1_048_576;
const MAX_COL = 16_384;

/** Number formats Excel does not write out (ids below 164), as exceljs names them. */
const BUILTIN_FORMATS: Readonly<Record<number, string>> = {
  0: "General",
  1: "0",
  2: "0.00",
  3: "#,##0",
  4: "#,##0.00",
  9: "0%",
  10: "0.00%",
  11: "0.00E+00",
  12: "# ?/?",
  13: "# ??/??",
  14: "mm-dd-yy",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  18: "h:mm AM/PM",
  19: "h:mm:ss AM/PM",
  20: "h:mm",
  21: "h:mm:ss",
  22: 'm/d/yy "h":mm',
  37: "#,##0 ;(#,##0)",
  38: "#,##0 ;[Red](#,##0)",
  39: "#,##0.00 ;(#,##0.00)",
  40: "#,##0.00 ;[Red](#,##0.00)",
  45: "mm:ss",
  46: "[h]:mm:ss",
  47: "mmss.0",
  48: "##0.0E+0",
  49: "@",
};

/** A number format that shows dates or times (quoted text and [bracketed] parts aside), as exceljs decides. */
export function isDateFormat(fmt: string | undefined): boolean {
  if (!fmt) return false;
  return /[ymdhMsb]/.test(fmt.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, ""));
}

const ENTITY: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML text with its line ends normalised (as XML requires), its entities and OOXML's `_xHHHH_` escapes decoded. */
export function xmlText(raw: string): string {
  let s = raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
  if (s.includes("&"))
    s = s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, e: string) => {
      if (e[0] !== "#") return ENTITY[e] ?? whole;
      const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
  if (s.includes("_x")) s = s.replace(/_x([0-9A-Fa-f]{4})_/g, (_w, h: string) => String.fromCharCode(parseInt(h, 16)));
  return s;
}

const attrPatterns = new Map<string, RegExp>();

/** The value of attribute `name` in an open tag's text (either quote), undefined when absent. */
function attr(tag: string, name: string): string | undefined {
  let re = attrPatterns.get(name);
  if (!re) attrPatterns.set(name, (re = new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = re.exec(tag);
  return m ? xmlText(m[1] ?? m[2] ?? "") : undefined;
}

/** The texts of every `<t>` in an element (a shared string, an inline string), phonetic runs left out. */
function runTexts(xml: string): string {
  const body = xml.includes("rPh") ? xml.replace(/<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, "") : xml;
  let text = "";
  for (const m of body.matchAll(/<(?:[\w.-]+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:[\w.-]+:)?t>/g)) text += m[1];
  return xmlText(text);
}

function decoderFor(first: Buffer | undefined): TextDecoder {
  if (first && first[0] === 0xff && first[1] === 0xfe) return new TextDecoder("utf-16le");
  if (first && first[0] === 0xfe && first[1] === 0xff) return new TextDecoder("utf-16be");
  return new TextDecoder("utf-8");
}

/** A whole (small) part as text. */
function partText(zip: ZipArchive, part: ZipPart): string {
  const bytes = zip.read(part);
  return decoderFor(bytes).decode(bytes);
}

/**
 * Scans a streamed XML part element by element: `onElement` gets each element named in `whole` with its
 * content (up to its end tag), and each other start tag alone. Text between tags is skipped.
 */
async function scanXml(
  chunks: AsyncIterable<Buffer>,
  whole: ReadonlySet<string>,
  onElement: (local: string, tag: string, content: string | undefined) => void,
): Promise<void> {
  let decoder: TextDecoder | undefined;
  let buf = "";
  const scan = (final: boolean) => {
    let pos = 0;
    for (;;) {
      const lt = buf.indexOf("<", pos);
      if (lt < 0) return void (buf = "");
      const gt = buf.indexOf(">", lt);
      if (gt < 0) break;
      const first = buf.charCodeAt(lt + 1);
      if (first === 33 /* ! */ && buf.startsWith("<!--", lt)) {
        const end = buf.indexOf("-->", lt);
        if (end < 0) break;
        pos = end + 3;
        continue;
      }
      if (first === 47 /* / */ || first === 63 /* ? */ || first === 33) {
        pos = gt + 1;
        continue;
      }
      let end = lt + 1;
      for (let ch = first; end < gt && ch !== 32 && ch !== 47 && ch !== 9 && ch !== 10 && ch !== 13;)
        ch = buf.charCodeAt(++end);
      const name = buf.slice(lt + 1, end);
      const local = name.slice(name.indexOf(":") + 1);
      const tag = buf.slice(lt, gt + 1);
      if (whole.has(local) && buf.charCodeAt(gt - 1) !== 47 /* a start tag, not <c/> */) {
        const close = buf.indexOf(`</${name}>`, gt);
        if (close < 0) break;
        onElement(local, tag, buf.slice(gt + 1, close));
        pos = close + name.length + 3;
        continue;
      }
      onElement(local, tag, undefined);
      pos = gt + 1;
    }
    if (final && buf.slice(pos).trim() !== "") throw new Error("the XML ends inside an element (truncated?)");
    buf = buf.slice(pos);
  };
  for await (const chunk of chunks) {
    decoder ??= decoderFor(chunk);
    buf += decoder.decode(chunk, { stream: true });
    scan(false);
  }
  buf += decoder?.decode() ?? "";
  scan(true);
}

/** The workbook part's path, from the package relationships (xl/workbook.xml when they do not say). */
function workbookPath(zip: ZipArchive): string {
  const rels = zip.part("_rels/.rels");
  if (rels) {
    for (const m of partText(zip, rels).matchAll(/<(?:[\w.-]+:)?Relationship\b[^>]*>/g)) {
      if (/\/officeDocument"|\/officeDocument'/.test(m[0])) return (attr(m[0], "Target") ?? "").replace(/^\/+/, "");
    }
  }
  return "xl/workbook.xml";
}

/** A relationship target resolved against the folder of the part that names it. */
function resolveTarget(from: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = from.split("/").slice(0, -1);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

/** `B12` as [row, column], without a regular expression (it runs for every cell); undefined when malformed. */
function decodeReference(ref: string | undefined): [number, number] | undefined {
  if (!ref) return undefined;
  let col = 0;
  let i = 0;
  for (; i < ref.length && i < 3; i++) {
    const c = ref.charCodeAt(i) & ~0x20;
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  if (i === 0 || i === ref.length) return undefined;
  let row = 0;
  for (; i < ref.length; i++) {
    const d = ref.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    row = row * 10 + d;
  }
  return [row, col];
}

interface SheetEntry {
  name: string;
  state: Worksheet["state"];
  path: string;
}

/** The sheets in workbook order (worksheets only: chart and dialog sheets hold no cells), and the date system. */
function workbookSheets(
  zip: ZipArchive,
  path: string,
): { sheets: SheetEntry[]; date1904: boolean; styles: string; sharedStrings: string } {
  const part = zip.part(path);
  if (!part) throw new Error(`no workbook part (${path})`);
  const xml = partText(zip, part);
  const relsPath = path.replace(/[^/]*$/, (file) => `_rels/${file}.rels`);
  const relsPart = zip.part(relsPath);
  const targets = new Map<string, string>();
  let styles = resolveTarget(path, "styles.xml");
  let sharedStrings = resolveTarget(path, "sharedStrings.xml");
  for (const m of relsPart ? partText(zip, relsPart).matchAll(/<(?:[\w.-]+:)?Relationship\b[^>]*>/g) : []) {
    const type = /\/(\w+)$/.exec(attr(m[0], "Type") ?? "")?.[1];
    const target = resolveTarget(path, attr(m[0], "Target") ?? "");
    if (type === "worksheet") targets.set(attr(m[0], "Id") ?? "", target);
    else if (type === "styles") styles = target;
    else if (type === "sharedStrings") sharedStrings = target;
  }
  const pr = /<(?:[\w.-]+:)?workbookPr\b[^>]*>/.exec(xml)?.[0] ?? "";
  const flag = attr(pr, "date1904");
  const sheets: SheetEntry[] = [];
  for (const m of xml.matchAll(/<(?:[\w.-]+:)?sheet\s[^>]*>/g)) {
    const id = attr(m[0], "id");
    const target = id === undefined ? undefined : targets.get(id);
    if (!target) continue;
    const state = attr(m[0], "state");
    sheets.push({
      name: attr(m[0], "name") ?? "",
      state: state === "hidden" || state === "veryHidden" ? state : "visible",
      path: target,
    });
  }
  return { sheets, date1904: flag === "1" || flag === "true", styles, sharedStrings };
}

/** Number formats and date styles by cell style index (cellXfs). */
function styleTable(zip: ZipArchive, path: string, date1904: boolean): StyleTable {
  const part = zip.part(path);
  const xml = part ? partText(zip, part) : "";
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:[\w.-]+:)?numFmt\s[^>]*>/g))
    custom.set(Number(attr(m[0], "numFmtId")), attr(m[0], "formatCode") ?? "");
  const xfs = /<(?:[\w.-]+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?cellXfs>/.exec(xml)?.[1] ?? "";
  const formats = [...xfs.matchAll(/<(?:[\w.-]+:)?xf\b[^>]*>/g)].map((m) => {
    const id = Number(attr(m[0], "numFmtId") ?? 0);
    return custom.get(id) ?? BUILTIN_FORMATS[id];
  });
  const dates = formats.map(isDateFormat);
  return {
    numFmt: (s) => (s < 0 ? undefined : formats[s]),
    isDate: (s) => s >= 0 && (dates[s] ?? false),
    date1904,
  };
}

async function sharedStrings(zip: ZipArchive, path: string): Promise<string[]> {
  const part = zip.part(path);
  const strings: string[] = [];
  if (!part) return strings;
  await scanXml(zip.stream(part), new Set(["si"]), (local, _tag, content) => {
    if (local === "si") strings.push(content === undefined ? "" : runTexts(content));
  });
  return strings;
}

/** Reads one worksheet's cells that hold a value, and its merged ranges. */
async function readSheet(
  zip: ZipArchive,
  entry: SheetEntry,
  strings: string[],
  styles: StyleTable,
): Promise<Worksheet> {
  const part = zip.part(entry.path);
  if (!part) throw new Error(`no part ${entry.path} for sheet "${entry.name}"`);
  const sheet = new SheetBuilder();
  let row = 0;
  let col = 0;
  /** A formatted empty cell passed over unread: its place matters only if the next cell has no `r`. */
  let skipped: string | undefined;
  const position = (tag: string) => {
    const ref = attr(tag, "r");
    if (ref === undefined) {
      if (skipped !== undefined) position(skipped);
      skipped = undefined;
      return void col++;
    }
    skipped = undefined;
    const at = decodeReference(ref);
    if (!at) throw new Error(`sheet "${entry.name}": "${ref}" is no cell reference`);
    [row, col] = at;
  };
  await scanXml(zip.stream(part), new Set(["c"]), (local, tag, content) => {
    if (local === "c") {
      if (content === undefined) {
        // `<c r="B7" s="3"/>`: a formatted empty cell, the bulk of a sheet's declared range.
        if (tag.includes(" r=")) skipped = tag;
        else col++;
        return;
      }
      position(tag);
      if (row < 1 || row > MAX_ROW || col < 1 || col > MAX_COL)
        throw new Error(`sheet "${entry.name}": a cell at row ${row} column ${col}, outside the sheet`);
      addCell(sheet, row, col, tag, content, strings);
    } else if (local === "row") {
      const r = attr(tag, "r");
      row = r === undefined ? row + 1 : Number(r);
      col = 0;
      skipped = undefined;
    } else if (local === "mergeCell") {
      const [from, to] = (attr(tag, "ref") ?? "").split(":").map(decodeReference);
      if (from && to)
        sheet.merge({ top: from[0], left: from[1], bottom: Math.min(to[0], MAX_ROW), right: Math.min(to[1], MAX_COL) });
    }
  });
  return sheet.build(entry.name, entry.state, styles);
}

/** Adds a cell with a value (one without, a formatted empty cell, is left out). */
function addCell(sheet: SheetBuilder, row: number, col: number, tag: string, content: string, strings: string[]): void {
  const type = attr(tag, "t") ?? "n";
  const style = Number(attr(tag, "s") ?? -1);
  const v = /<(?:[\w.-]+:)?v(?:\s[^>]*)?>([^<]*)<\/(?:[\w.-]+:)?v>/.exec(content)?.[1];
  if (type === "inlineStr") {
    const text = content.includes("<") && /<(?:[\w.-]+:)?is\b/.test(content) ? runTexts(content) : xmlText(v ?? "");
    if (text !== "") sheet.add(row, col, Kind.Text, text, style);
    return;
  }
  if (v === undefined || v === "") return;
  switch (type) {
    case "s": {
      const text = strings[Number(v)];
      if (text === undefined) throw new Error(`cell ${row}:${col} names shared string ${v} of ${strings.length}`);
      if (text !== "") sheet.add(row, col, Kind.Text, text, style);
      return;
    }
    case "str": {
      const text = xmlText(v);
      if (text !== "") sheet.add(row, col, Kind.Text, text, style);
      return;
    }
    case "b":
      return sheet.add(row, col, Kind.Boolean, v.trim() === "1" || v.trim() === "true" ? 1 : 0, style);
    case "e":
      return sheet.add(row, col, Kind.Error, xmlText(v), style);
    case "d":
      return sheet.add(row, col, Kind.DateText, xmlText(v).trim(), style);
    default: {
      const n = Number(v);
      if (v.trim() !== "" && Number.isFinite(n)) sheet.add(row, col, Kind.Number, n, style);
      else sheet.add(row, col, Kind.Text, xmlText(v), style);
    }
  }
}

/**
 * Reads an XLSX workbook: every worksheet's cells that hold a value. The zip's bounds are checked
 * first (archive.ts); a malformed part is a FeedError naming the bank.
 */
export async function readXlsxWorkbook(bankId: string, body: Uint8Array): Promise<Workbook> {
  const zip = ZipArchive.open(bankId, body, "XLSX workbook");
  try {
    const path = workbookPath(zip);
    const book = workbookSheets(zip, path);
    const { sheets } = book;
    if (sheets.length === 0) throw new FeedError(bankId, "the XLSX workbook has no sheets");
    const styles = styleTable(zip, book.styles, book.date1904);
    const strings = await sharedStrings(zip, book.sharedStrings);
    const worksheets: Worksheet[] = [];
    for (const entry of sheets) worksheets.push(await readSheet(zip, entry, strings, styles));
    return new PackedWorkbook(worksheets);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(bankId, `malformed or truncated XLSX workbook (${(error as Error).message})`, { cause: error });
  }
}
