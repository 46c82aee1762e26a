// Parsing within a budget (issue 37.3): an answer up to the 64 MiB fetch cap is read in well under 512 MB.
// The parse runs in a child process with a 512 MB heap, on the built adapter, and reports its peak RSS.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { ZipArchive } from "../../src/feed/archive.js";
import { readXlsx } from "../../src/feed/spreadsheet.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "exrates-large-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Bank of Russia history (XML_dynamic.asp's form) of about `bytes` bytes: one Record a day. */
function writeCbrHistory(path: string, bytes: number): number {
  const fd = openSync(path, "w");
  const head = `<?xml version="1.0" encoding="windows-1251"?><ValCurs ID="R01235" DateRange1="01.01.1001" DateRange2="01.01.2026" name="Foreign Currency Market Dynamic">`;
  let written = writeSync(fd, head);
  let n = 0;
  while (written < bytes) {
    const chunk: string[] = [];
    for (let k = 0; k < 1000; k++, n++) {
      const day = `${String(1 + (n % 28)).padStart(2, "0")}.${String(1 + (Math.floor(n / 28) % 12)).padStart(2, "0")}.${1001 + Math.floor(n / 336)}`;
      chunk.push(
        `<Record Date="${day}" Id="R01235"><Nominal>1</Nominal><Value>90,${String(n % 10000).padStart(4, "0")}</Value><VunitRate>90,7307</VunitRate></Record>`,
      );
    }
    written += writeSync(fd, chunk.join(""));
  }
  writeSync(fd, "</ValCurs>");
  closeSync(fd);
  return n;
}

/** The fetch cap: no answer is larger. */
const FETCH_CAP = 64 * 1024 * 1024;

/**
 * A CNB year file (daily-year's form) of up to `bytes` bytes: ten currencies a day, English names.
 * Returns the rows written.
 */
function writeCnbYears(path: string, bytes: number): number {
  const fd = openSync(path, "w");
  let written = writeSync(fd, '{"rates":[');
  let chunk: string[] = [];
  let pending = 0;
  let n = 0;
  for (; ; n++) {
    const row = `${n === 0 ? "" : ","}{"validFor":"${cnbDay(n)}","order":${Math.floor(n / 10) % 250},"country":"Australia","currency":"dollar","amount":1,"currencyCode":"${CNB_CODES[n % 10]}","rate":${cnbRate(n)}}`;
    if (written + pending + row.length + 2 > bytes) break;
    chunk.push(row);
    pending += row.length;
    if (chunk.length === 1000) {
      written += writeSync(fd, chunk.join(""));
      chunk = [];
      pending = 0;
    }
  }
  writeSync(fd, `${chunk.join("")}]}`);
  closeSync(fd);
  return n;
}
const CNB_CODES = ["AUD", "BRL", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "HUF"];
const cnbDay = (n: number) =>
  `${1001 + Math.floor(n / 3360)}-${String(1 + (Math.floor(n / 280) % 12)).padStart(2, "0")}-${String(1 + (Math.floor(n / 10) % 28)).padStart(2, "0")}`;
const cnbRate = (n: number) => `${14 + (n % 7)}.${String(n % 1000).padStart(3, "0")}`;

/** An NBP answer (tables A) of up to `bytes` bytes: ten rates a table, Polish names (not Latin-1). */
function writeNbpTables(path: string, bytes: number): void {
  const fd = openSync(path, "w");
  const codes = ["USD", "EUR", "CHF", "GBP", "JPY", "CZK", "HUF", "NOK", "SEK", "DKK"];
  const names = ["dolar amerykański", "euro", "frank szwajcarski", "funt szterling", "jen (Japonia)"];
  let written = writeSync(fd, "[");
  for (let t = 0; ; t++) {
    const rates = codes.map((code, k) => `{"currency":"${names[k % 5]}","code":"${code}","mid":${3 + k}.${t}${k}}`);
    const text = `${t === 0 ? "" : ","}{"table":"A","no":"${t % 250}/A/NBP/2026","effectiveDate":"${cnbDay(t * 10)}","rates":[${rates.join(",")}]}`;
    if (written + Buffer.byteLength(text) + 1 > bytes) break;
    written += writeSync(fd, text);
  }
  writeSync(fd, "]");
  closeSync(fd);
}

// Reads the answer, parses it with the built adapter, prints records, held rows, the first and the last
// record (or the error that refused the answer) and the peak RSS in MB.
const CHILD = `
import { readFileSync } from "node:fs";
const { default: adapter } = await import(process.argv[1]);
let out = {};
try {
  const r = adapter.parse(readFileSync(process.argv[2]), { url: process.argv[3] });
  out = { records: r.records.length, held: r.held.length, first: r.records[0], last: r.records.at(-1), firstHeld: r.held[0] };
} catch (error) {
  out = { error: error.message };
}
console.log(JSON.stringify({ ...out, rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
`;

interface ChildOut {
  records?: number;
  held?: number;
  first?: unknown;
  last?: unknown;
  firstHeld?: Record<string, unknown>;
  error?: string;
  rssMB: number;
}

/** Parses the answer at `path` with the built adapter in a child with a 512 MB heap. */
function parseInChild(bank: string, path: string, url: string): ChildOut {
  const child = spawnSync(
    process.execPath,
    ["--max-old-space-size=512", "--input-type=module", "-e", CHILD, `${ROOT}/dist/adapters/${bank}.js`, path, url],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  expect(child.stderr).toBe("");
  return JSON.parse(child.stdout) as ChildOut;
}

describe("a large answer", () => {
  it("a 60 MB XML history parses under 512 MB of peak RSS, every record exact", { timeout: 300_000 }, () => {
    const path = join(dir, "cbr.xml");
    const n = writeCbrHistory(path, 60_000_000);
    const out = parseInChild("CBR", path, "https://www.cbr.ru/scripts/XML_dynamic.asp");
    const last = n - 1;
    expect(out).toMatchObject({
      records: n,
      held: 0,
      first: { effectiveDate: "1001-01-01", currency: "USD", rate: "90.0000" },
      last: {
        effectiveDate: `${1001 + Math.floor(last / 336)}-${String(1 + (Math.floor(last / 28) % 12)).padStart(2, "0")}-${String(1 + (last % 28)).padStart(2, "0")}`,
        currency: "USD",
        rate: `90.${String(last % 10000).padStart(4, "0")}`,
      },
    });
    expect(out.rssMB).toBeLessThan(512);
  });

  it(
    "a 64 MiB JSON year file of 500,000 rows parses under 512 MB of peak RSS, every row exact",
    { timeout: 300_000 },
    () => {
      const path = join(dir, "cnb.json");
      const n = writeCnbYears(path, FETCH_CAP);
      expect(statSync(path).size).toBeGreaterThan(FETCH_CAP - 200);
      const out = parseInChild("CNB", path, "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026");
      expect(out).toMatchObject({
        records: n,
        held: 0,
        first: { effectiveDate: cnbDay(0), currency: "AUD", rate: cnbRate(0) },
        last: { effectiveDate: cnbDay(n - 1), currency: CNB_CODES[(n - 1) % 10], rate: cnbRate(n - 1) },
      });
      expect(out.rssMB).toBeLessThan(512);
    },
  );

  it(
    "a 64 MiB JSON answer of a million small rates is refused whole, saying why, under 512 MB",
    { timeout: 300_000 },
    () => {
      const path = join(dir, "nbp.json");
      writeNbpTables(path, FETCH_CAP);
      const out = parseInChild(
        "NBP",
        path,
        "https://api.nbp.pl/api/exchangerates/tables/A/2026-01-01/2026-03-31/?format=json",
      );
      expect(out.error).toMatch(
        /^NBP: the JSON answer \(64\.0 MiB\) would take more than 160\.0 MiB once read \(reckoned at byte \d+ of it\): refused whole$/,
      );
      expect(out.rssMB).toBeLessThan(512);
    },
  );

  it("a 64 MiB JSON figure is held as its row, never computed on, under 512 MB", { timeout: 300_000 }, () => {
    const path = join(dir, "huge.json");
    const head = `{"rates":[{"validFor":"2026-01-02","order":1,"country":"EMU","currency":"euro","amount":1,"currencyCode":"EUR","rate":1`;
    writeFileSync(path, `${head}${"0".repeat(FETCH_CAP - head.length - 3)}}]}`);
    expect(statSync(path).size).toBe(FETCH_CAP);
    const out = parseInChild("CNB", path, "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026");
    expect(out).toMatchObject({ records: 0, held: 1, firstHeld: { effectiveDate: "2026-01-02", currency: "EUR" } });
    expect(String(out.firstHeld?.reason)).toMatch(/beyond the bound/);
    expect(String(out.firstHeld?.rate).length).toBeLessThan(200);
    expect(out.rssMB).toBeLessThan(512);
  });

  it("an XLSX whose sheet declares 1,000 times its compressed size is refused before inflating", async () => {
    // A zip of one 100 MB sheet of zeros (about 100 KB compressed), its declared sizes true.
    const sheet = Buffer.alloc(100 * 1024 * 1024, 0x30);
    const packed = deflateRawSync(sheet, { level: 9 });
    const bomb = zipOf("xl/worksheets/sheet1.xml", sheet.length, packed);
    const started = process.cpuUsage();
    await expect(readXlsx("BOMB", bomb)).rejects.toThrow(
      /BOMB: the XLSX workbook's part "xl\/worksheets\/sheet1.xml" inflates to 100.0 MiB from .* KiB, over 200:1 \(a zip bomb\?\): refused/,
    );
    expect(() => ZipArchive.open("BOMB", bomb)).toThrow(/over 200:1/);
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1000);
  });
});

/** A one-part zip (deflated), sizes and CRC as given. */
function zipOf(name: string, size: number, packed: Buffer): Buffer {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(30 + nameBytes.length + packed.length, 16);
  return Buffer.concat([local, nameBytes, packed, central, nameBytes, end]);
}
