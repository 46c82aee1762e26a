// Parsing within a budget (issue 37.3): an answer up to the 64 MiB fetch cap is read in well under 512 MB.
// The parse runs in a child process with a 512 MB heap, on the built adapter, and reports its peak RSS.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
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

// Reads the answer, parses it with the built adapter, prints records, held rows, the first and the last
// record and the peak RSS in MB.
const CHILD = `
import { readFileSync } from "node:fs";
const { default: cbr } = await import(process.argv[1]);
const out = cbr.parse(readFileSync(process.argv[2]), { url: "https://www.cbr.ru/scripts/XML_dynamic.asp" });
const r = out.records;
console.log(JSON.stringify({ records: r.length, held: out.held.length, first: r[0], last: r[r.length - 1],
  rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
`;

describe("a large answer", () => {
  it("a 60 MB XML history parses under 512 MB of peak RSS, every record exact", { timeout: 300_000 }, () => {
    const path = join(dir, "cbr.xml");
    const n = writeCbrHistory(path, 60_000_000);
    const child = spawnSync(
      process.execPath,
      ["--max-old-space-size=512", "--input-type=module", "-e", CHILD, `${ROOT}/dist/adapters/CBR.js`, path],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    expect(child.stderr).toBe("");
    const out = JSON.parse(child.stdout) as {
      records: number;
      held: number;
      first: unknown;
      last: unknown;
      rssMB: number;
    };
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
