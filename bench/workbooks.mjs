// Big and odd workbooks, parsed in bounded memory: parse time and peak RSS per MB of answer.
//   node bench/workbooks.mjs build <kind> <file> [rows]   writes a generated workbook
//   node bench/workbooks.mjs parse <kind> <file>          parses it (run it with --max-old-space-size=512)
//   node bench/workbooks.mjs bench <kind> [rows]           build, then parse in a child with a 512 MB heap
//   node bench/workbooks.mjs baseline <kind> [rows]        the same workbook loaded whole by exceljs
// Kinds:
//   huge-range   RBF's layout on 3 sheets (or `rows` sheets: 18 make 50 MB) that declare A1:XFD1048576,
//                with 65,536 formatted empty rows (16 style-only cells each, up to column IV, and one at
//                row 1,048,576), 250 days each
//   history      RBF's layout, one sheet of `rows` days (default 200,000) of 3 currencies
//   daily-xls    a BIFF8 .xls with one sheet per day (60 days, BCV's shape) and one sheet declaring
//                A1:IV65536 with 65,536 formatted empty rows (blank cells)
// Figures: day i (from 0) is Excel serial 36526 + i (2000-01-01 + i days); its rates are
// US$ 0.4000 + (i mod 1000) / 10000, A$ 0.6000 + (i mod 997) / 10000, NZ$ 0.7000 + (i mod 991) / 10000.
// The test (test/feed/big-workbooks.test.ts) drives the same commands and checks the figures.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

const LABELS = ["US$", "A$", "NZ$"];
const BASES = [
  [4000, 1000],
  [6000, 997],
  [7000, 991],
];
/** The rate of column k on day i, as the text the workbook's format shows (4 decimals). */
export const rateText = (k, i) => ((BASES[k][0] + (i % BASES[k][1])) / 10000).toFixed(4);

/** A zip of the given parts (name, bytes), deflated, as Excel writes one. */
export function zipOf(parts) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const packed = deflateRawSync(data, { level: 1 });
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(head, nameBytes, packed);
    central.push(dir, nameBytes);
    offset += head.length + nameBytes.length + packed.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const col = (n) => {
  let s = "";
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
};

/** RBF's table: a "Period" header, then `days` rows from day `first`; styles 1 date, 2 four decimals. */
function tableRows(first, days) {
  const out = [`<row r="1"><c r="A1" t="inlineStr"><is><t>Period</t></is></c>`];
  LABELS.forEach((l, k) => out.push(`<c r="${col(k + 2)}1" t="inlineStr"><is><t>${l}</t></is></c>`));
  out.push("</row>");
  for (let j = 0; j < days; j++) {
    const i = first + j;
    const r = j + 2;
    out.push(`<row r="${r}"><c r="A${r}" s="1"><v>${36526 + i}</v></c>`);
    for (let k = 0; k < LABELS.length; k++) out.push(`<c r="${col(k + 2)}${r}" s="2"><v>${rateText(k, i)}</v></c>`);
    out.push("</row>");
  }
  return out;
}

/** Formatted empty rows from `from` to 65,536 (16 style-only cells each) and the sheet's last row. */
function formattedRows(from) {
  if (formattedCache.has(from)) return formattedCache.get(from);
  const out = [];
  for (let r = from; r <= 65_536; r++) {
    out.push(`<row r="${r}" spans="1:256" s="3" customFormat="1" ht="15">`);
    for (let c = 1; c <= 256; c += 17) out.push(`<c r="${col(c)}${r}" s="3"/>`);
    out.push("</row>");
  }
  out.push('<row r="1048576" s="3" customFormat="1"/>');
  formattedCache.set(from, out);
  return out;
}
const formattedCache = new Map();

function sheetXml(rows, huge) {
  const head = huge
    ? '<dimension ref="A1:XFD1048576"/><cols><col min="1" max="16384" width="9" style="3"/></cols>'
    : "";
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS}>${head}<sheetData>${rows.join("")}</sheetData></worksheet>`,
  );
}

function xlsxOf(sheets) {
  const list = sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  const rels = sheets
    .map((_s, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join("");
  const styles =
    `<styleSheet ${NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0000"/></numFmts>` +
    '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="0" fillId="2"/></cellXfs></styleSheet>';
  return zipOf([
    {
      name: "_rels/.rels",
      data: Buffer.from(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: "xl/workbook.xml",
      data: Buffer.from(`<workbook ${NS} xmlns:r="${REL}"><sheets>${list}</sheets></workbook>`),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: Buffer.from(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
      ),
    },
    { name: "xl/styles.xml", data: Buffer.from(styles) },
    ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: s.xml })),
  ]);
}

/** BCV's shape: one sheet per day named DDMMYYYY (newest first), and a sheet of formatted empty rows. */
async function dailyXls() {
  const XLSX = await import("@e965/xlsx");
  const wb = XLSX.utils.book_new();
  for (let i = 59; i >= 0; i--) {
    const d = new Date(Date.UTC(2000, 0, 1 + i));
    const name = `${String(d.getUTCDate()).padStart(2, "0")}${String(d.getUTCMonth() + 1).padStart(2, "0")}${d.getUTCFullYear()}`;
    const ws = XLSX.utils.aoa_to_sheet([
      ["Fecha Valor", 36526 + i],
      ["Moneda", "Bs./M.E."],
      ...LABELS.map((l, k) => [l, Number(rateText(k, i))]),
    ]);
    XLSX.utils.book_append_sheet(wb, ws, name);
  }
  // A last sheet declaring A1:IV65536. Its 65,536 formatted empty rows are appended as raw BIFF8
  // records (SheetJS's writer takes minutes over so many cells): it is the workbook stream's last
  // substream, so nothing before it moves.
  // (Dense: the writer then skips the declared range's missing rows instead of naming every cell.)
  XLSX.utils.book_append_sheet(wb, { "!data": [[{ t: "s", v: "Notas" }]], "!ref": "A1:IV65536" }, "Formato");
  const cfb = XLSX.CFB.read(XLSX.write(wb, { type: "buffer", bookType: "biff8" }), { type: "buffer" });
  const entry = XLSX.CFB.find(cfb, "Workbook");
  const stream = Buffer.from(entry.content);
  entry.content = Buffer.concat([stream.subarray(0, -4), formattedBiffRows(), stream.subarray(-4)]);
  entry.size = entry.content.length;
  return Buffer.from(XLSX.CFB.write(cfb, { type: "buffer" }));
}

/** BIFF8 ROW and MULBLANK records: rows 2 to 65,536, each formatted, with 16 formatted blank cells. */
function formattedBiffRows() {
  const records = [];
  for (let r = 1; r < 65_536; r++) {
    const row = Buffer.alloc(20);
    row.writeUInt16LE(0x0208, 0);
    row.writeUInt16LE(16, 2);
    row.writeUInt16LE(r, 4);
    row.writeUInt16LE(0, 6);
    row.writeUInt16LE(16, 8);
    row.writeUInt16LE(300, 10);
    row.writeUInt16LE(0x01c0, 16); // fGhostDirty: the row has a format of its own
    row.writeUInt16LE(15, 18);
    const blank = Buffer.alloc(4 + 6 + 2 * 16);
    blank.writeUInt16LE(0x00be, 0);
    blank.writeUInt16LE(6 + 2 * 16, 2);
    blank.writeUInt16LE(r, 4);
    blank.writeUInt16LE(0, 6);
    for (let c = 0; c < 16; c++) blank.writeUInt16LE(15, 8 + 2 * c);
    blank.writeUInt16LE(15, 8 + 32);
    records.push(row, blank);
  }
  return Buffer.concat(records);
}

export async function build(kind, rows = 200_000) {
  if (kind === "huge-range") {
    // `rows` counts sheets here (default 3; 18 sheets make a 50 MB answer).
    const count = rows === 200_000 ? 3 : rows;
    const sheets = Array.from({ length: count }, (_v, k) => ({
      name: `Rates ${k + 1}`,
      xml: sheetXml([...tableRows(k * 250, 250), ...formattedRows(252)], true),
    }));
    return xlsxOf(sheets);
  }
  if (kind === "history") return xlsxOf([{ name: "Daily history", xml: sheetXml(tableRows(0, rows), false) }]);
  if (kind === "daily-xls") return dailyXls();
  throw new Error(`unknown kind ${kind}`);
}

/** Parses a generated workbook the way the service does and summarises what it read. */
async function parse(kind, file) {
  const body = readFileSync(file);
  const started = process.hrtime.bigint();
  let summary;
  if (kind === "daily-xls") {
    const { readXls, xlsGrid, xlsText, xlsDecimal } = await import("../dist/src/feed/spreadsheet.js");
    const wb = readXls("BENCH", body);
    const figures = [];
    let gridCells = 0;
    for (const name of wb.SheetNames) {
      const grid = xlsGrid(wb.Sheets[name]);
      gridCells += grid.reduce((n, row) => n + row.length, 0);
      for (const row of grid)
        if (LABELS.includes(xlsText(row[0]))) figures.push(`${name} ${xlsText(row[0])} ${xlsDecimal(row[1])}`);
    }
    summary = {
      sheets: wb.SheetNames.length,
      gridCells,
      records: figures.length,
      sample: [figures[0], figures.at(-1)],
    };
  } else {
    const { default: rbf } = await import("../dist/adapters/RBF.js");
    const { records, held } = await rbf.parse(body, { url: "https://www.rbf.gov.fj/x.xlsx" });
    const pick = (r) => `${r.effectiveDate} ${r.currency} ${r.rate}`;
    summary = { records: records.length, held: held.length, sample: [pick(records[0]), pick(records.at(-1))] };
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const mb = body.length / 2 ** 20;
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  return { kind, answerMB: mb, ms, msPerMB: ms / mb, maxRssMB, rssPerMB: maxRssMB / mb, ...summary };
}

/** exceljs loading the same workbook whole (the reader this one replaced), for the same figures. */
async function baseline(file) {
  const { default: ExcelJS } = await import("exceljs");
  const body = readFileSync(file);
  const started = process.hrtime.bigint();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body);
  let cells = 0;
  for (const ws of wb.worksheets) ws.eachRow((row) => (cells += row.cellCount));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const mb = body.length / 2 ** 20;
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  return { answerMB: mb, ms, msPerMB: ms / mb, maxRssMB, rssPerMB: maxRssMB / mb, cells };
}

/** Builds a workbook in a temporary folder and runs `mode` on it in a child process. */
function measure(mode, kind, rows, heap) {
  const dir = mkdtempSync(join(tmpdir(), "exrates-workbooks-"));
  try {
    const file = join(dir, "answer");
    execFileSync(process.execPath, [import.meta.filename, "build", kind, file, String(rows)]);
    const args = [...(heap ? [`--max-old-space-size=${heap}`] : []), import.meta.filename, mode, kind, file];
    const out = execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24 });
    return { ...JSON.parse(out.trim().split("\n").pop()), fileMB: statSync(file).size / 2 ** 20 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const [mode, kind, a, b] = process.argv.slice(2);
  if (mode === "build") writeFileSync(a, await build(kind, b ? Number(b) : undefined));
  else if (mode === "parse") console.log(JSON.stringify(await parse(kind, a)));
  else if (mode === "baseline-child") console.log(JSON.stringify(await baseline(a)));
  else if (mode === "bench") console.log(JSON.stringify(measure("parse", kind, a ? Number(a) : 200_000, 512)));
  else if (mode === "baseline") console.log(JSON.stringify(measure("baseline-child", kind, a ? Number(a) : 200_000)));
  else throw new Error("usage: node bench/workbooks.mjs build|parse|bench|baseline <kind> ...");
}
