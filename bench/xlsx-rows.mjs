// Large workbooks: a whole-history XLSX read row by row (src/feed/xlsx-rows.ts, what RBNZ and BOAL use)
// against the same workbook loaded whole by exceljs (src/feed/spreadsheet.ts readXlsx, the baseline), every
// figure read as exact decimal text both ways. The workbook is generated once in the layout of the RBNZ's
// B1 file: 7,000 day rows (1999-2026) of 20 columns of figures typed to 5 decimals, ~6 MB of sheet XML.
//
//   npm run build && node bench/xlsx-rows.mjs
//
// Each case runs in a fresh process (bench/lib.mjs repeat, BENCH_RUNS times, median): time to read every
// figure, and the process's peak RSS. Written into BENCHMARKS.md under "## Large workbooks" (that section only).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, repeat, RUNS, writeSection } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DAYS = 7_000;
const COLUMNS = 20;
const FILE = join(tmpdir(), "exrates-bench", `b1-typed-${DAYS}x${COLUMNS}.xlsx`);

async function generate() {
  const { default: ExcelJS } = await import("exceljs");
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Data");
  ws.addRow(["", ...Array.from({ length: COLUMNS - 1 }, () => "Exchange rates (quoted per NZ$)")]);
  ws.addRow(["Unit", ...Array.from({ length: COLUMNS - 1 }, (_v, i) => `NZD/C${String(i).padStart(2, "0")}`)]);
  for (let d = 0; d < DAYS; d++) {
    const row = ws.addRow([
      36165 + d,
      ...Array.from({ length: COLUMNS - 1 }, (_v, i) => Math.round((0.5 + i * 7.31) * (1 + d / 1e4) * 1e5) / 1e5),
    ]);
    row.getCell(1).numFmt = "dd\\ mmm\\ yyyy";
    for (let c = 2; c <= COLUMNS; c++) row.getCell(c).numFmt = "#,##0.00000";
  }
  mkdirSync(join(tmpdir(), "exrates-bench"), { recursive: true });
  await wb.xlsx.writeFile(FILE);
}

if (process.argv[2] === "case") {
  const body = readFileSync(FILE);
  const start = process.hrtime.bigint();
  let figures = 0;
  if (process.argv[3] === "streamed") {
    const { openXlsxRows, streamedDecimal } = await import(join(ROOT, "dist/src/feed/xlsx-rows.js"));
    const wb = await openXlsxRows("BENCH", body);
    for await (const row of wb.rows("Data"))
      for (const cell of row.cells.values()) if (cell.column > 0 && streamedDecimal(cell) !== undefined) figures++;
  } else {
    const { readXlsx, cellDecimal } = await import(join(ROOT, "dist/src/feed/spreadsheet.js"));
    const wb = await readXlsx("BENCH", body);
    wb.getWorksheet("Data").eachRow((row) =>
      row.eachCell((cell, column) => {
        if (column > 1 && cellDecimal(cell) !== undefined) figures++;
      }),
    );
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(JSON.stringify({ ms, figures, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

if (!existsSync(FILE)) await generate();
const self = fileURLToPath(import.meta.url);
const rows = [];
const results = {};
for (const [reader, name] of [
  ["exceljs", "exceljs `load`, then every cell (readXlsx, cellDecimal): baseline"],
  ["streamed", "row by row (openXlsxRows, streamedDecimal)"],
]) {
  const runs = repeat(self, ["case", reader]);
  results[reader] = {
    ms: median(runs.map((r) => r.ms)),
    rss: median(runs.map((r) => r.maxRssMB)),
    figures: runs[0].figures,
  };
  rows.push(`| ${name} | ${fmt(results[reader].figures)} | ${fmt(results[reader].ms)} | ${fmt(results[reader].rss)} |`);
  console.error(`${name}: ${fmt(results[reader].ms)} ms, peak RSS ${fmt(results[reader].rss)} MB`);
}
const section = `## Large workbooks

Command: \`npm run build && node bench/xlsx-rows.mjs\` (each case in a fresh process, median of ${RUNS} runs). A
generated workbook in the layout of the RBNZ's B1 file, ${fmt(DAYS)} day rows of ${COLUMNS} columns
(${fmt(readFileSync(FILE).length / 2 ** 20, 1)} MiB zipped), every figure read as exact decimal text: row by row
(src/feed/xlsx-rows.ts) against exceljs loading the whole workbook first (the baseline). Peak RSS is the
process's, Node included.
Machine: ${machine()}. Measured ${new Date().toISOString().slice(0, 10)}.

| reader | figures | ms | peak RSS, MB |
|---|---:|---:|---:|
${rows.join("\n")}

Row by row: ${fmt(results.exceljs.ms / results.streamed.ms, 1)}x the speed, ${fmt(results.streamed.rss / results.exceljs.rss, 2)}x the memory of the baseline.
`;
console.log(section);
writeSection(section);
