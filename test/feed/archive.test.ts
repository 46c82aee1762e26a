// Compressed answers within bounds (src/feed/archive.ts): a zip bomb in each container (an XLSX
// workbook, a zipped CSV, a gzip file, an HTTP body sent gzipped) is refused with a FeedError (or, over
// HTTP, an HttpError) naming it, without inflating it: the bombs are built here from repeated deflate
// blocks (3 GiB from 3 MB, 400 MiB from 400 KB), nothing big is committed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FeedError, HttpError } from "../../src/errors.js";
import { ZipArchive, gunzipBody, unzipOne } from "../../src/feed/archive.js";
import { createHttpClient } from "../../src/feed/http.js";
import { readXlsx } from "../../src/feed/spreadsheet.js";

const MiB = 1024 * 1024;

/** A raw deflate stream that inflates to `mib` MiB of zeros, about 1 KB per MiB. */
function deflateBomb(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => block), Buffer.from([0x03, 0x00])]);
}

interface Part {
  name: string;
  /** Deflated bytes, with the inflated size the directory declares and its CRC. */
  deflated: Buffer;
  size: number;
  crc: number;
}

const honest = (name: string, data: Buffer): Part => ({
  name,
  deflated: deflateRawSync(data),
  size: data.length,
  crc: crc32(data),
});

/** A zip of parts, each declaring the size it is given (which may be a lie). */
function zipOf(parts: Part[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const fields = (at: Buffer, o: number) => {
      at.writeUInt16LE(8, o);
      at.writeUInt32LE(p.crc, o + 6);
      at.writeUInt32LE(p.deflated.length, o + 10);
      at.writeUInt32LE(p.size, o + 14);
      at.writeUInt16LE(name.length, o + 18);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 8);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    fields(dir, 10);
    dir.writeUInt32LE(offset, 42);
    out.push(local, name, p.deflated);
    central.push(dir, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(
    central.reduce((n, b) => n + b.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, ...central, end]);
}

/** A workbook's small parts, then a sheet part as given. */
function workbookWith(sheet: Part): Buffer {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return zipOf([
    honest(
      "xl/workbook.xml",
      Buffer.from(
        `<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ),
    honest(
      "xl/_rels/workbook.xml.rels",
      Buffer.from(
        `<Relationships><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    ),
    { ...sheet, name: "xl/worksheets/sheet1.xml" },
  ]);
}

/** Runs `refuse` and checks that it threw `error`, and that memory stayed far below what the bomb holds. */
async function refusedWithin(refuse: () => unknown, error: RegExp, type: typeof FeedError | typeof HttpError) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let thrown: unknown;
  try {
    await refuse();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(type);
  expect((thrown as Error).message).toMatch(error);
  expect(process.memoryUsage().rss - before).toBeLessThan(256 * MiB);
}

const bomb3GiB = deflateBomb(3072);
const bomb400MiB = deflateBomb(400);

describe("zip bombs in a workbook", () => {
  it("refuses a part that declares 3 GiB, before inflating anything", async () => {
    const body = workbookWith({ name: "", deflated: bomb3GiB, size: 3072 * MiB, crc: 0 });
    expect(body.length).toBeLessThan(4 * MiB);
    await refusedWithin(
      () => readXlsx("AAA", body),
      /^AAA: the XLSX workbook's part "xl\/worksheets\/sheet1.xml" inflates to 3072.0 MiB, over the 512.0 MiB bound: refused$/,
      FeedError,
    );
  });

  it("refuses a part that declares 400 MiB from 400 KB (a ratio no workbook has)", async () => {
    await refusedWithin(
      () => readXlsx("AAA", workbookWith({ name: "", deflated: bomb400MiB, size: 400 * MiB, crc: 0 })),
      /^AAA: the XLSX workbook's part "xl\/worksheets\/sheet1.xml" inflates to 400.0 MiB from \d+ KiB, over 200:1 \(a zip bomb\?\): refused$/,
      FeedError,
    );
  });

  it("stops a part that lies about its size as soon as it outgrows what it declared", async () => {
    // 2 MiB declared from 400 KB passes the ratio check; the data inflates to 400 MiB.
    await refusedWithin(
      () => readXlsx("AAA", workbookWith({ name: "", deflated: bomb400MiB, size: 2 * MiB, crc: 0 })),
      /^AAA: the XLSX workbook's part "xl\/worksheets\/sheet1.xml" inflates past the 2.0 MiB it declares: refused$/,
      FeedError,
    );
  });

  it("refuses a part whose bytes fail their CRC (a damaged workbook), and a directory of too many parts", async () => {
    const sheet = Buffer.from('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>');
    const ok = honest("", sheet);
    expect((await readXlsx("AAA", workbookWith(ok))).worksheets[0]!.rowCount).toBe(1);
    await expect(readXlsx("AAA", workbookWith({ ...ok, crc: ok.crc ^ 1 }))).rejects.toThrow(
      /^AAA: malformed or truncated XLSX workbook \("xl\/worksheets\/sheet1.xml" fails its size or CRC check\)$/,
    );
    const many = zipOf(Array.from({ length: 10_001 }, (_v, i) => honest(`p${i}`, Buffer.from("x"))));
    expect(() => ZipArchive.open("AAA", many, "XLSX workbook")).toThrow(
      /^AAA: the XLSX workbook lists 10001 parts, over the 10000 bound: refused$/,
    );
  });

  it("refuses parts that inflate past 1 GiB in all, each within bounds", () => {
    const parts = Array.from({ length: 3 }, (_v, i) => ({
      name: `xl/worksheets/sheet${i}.xml`,
      deflated: deflateBomb(2),
      size: 400 * MiB,
      crc: 0,
    }));
    // Each declares 400 MiB (the ratio is checked against its own bytes: give each enough of them).
    for (const p of parts) p.deflated = Buffer.concat([p.deflated, Buffer.alloc(3 * MiB)]);
    expect(() => ZipArchive.open("AAA", zipOf(parts), "XLSX workbook")).toThrow(
      /^AAA: the XLSX workbook inflates to 1200.0 MiB in all, over the 1024.0 MiB bound: refused$/,
    );
  });
});

describe("zip bombs in a zipped CSV", () => {
  it("reads the one CSV of an honest archive", () => {
    const csv = Buffer.from("date,rate\n2026-03-02,1.0850\n");
    expect(unzipOne("AAA", zipOf([honest("rates.csv", csv)]), /\.csv$/, "zipped CSV").toString()).toBe(csv.toString());
    expect(() => unzipOne("AAA", zipOf([honest("a.txt", csv)]), /\.csv$/, "zipped CSV")).toThrow(
      /^AAA: the zipped CSV holds 0 parts named like/,
    );
  });

  it("refuses a declared bomb and a lying one", async () => {
    await refusedWithin(
      () =>
        unzipOne(
          "AAA",
          zipOf([{ name: "rates.csv", deflated: bomb3GiB, size: 3072 * MiB, crc: 0 }]),
          /\.csv$/,
          "zipped CSV",
        ),
      /^AAA: the zipped CSV's part "rates.csv" inflates to 3072.0 MiB, over the 512.0 MiB bound: refused$/,
      FeedError,
    );
    await refusedWithin(
      () =>
        unzipOne(
          "AAA",
          zipOf([{ name: "rates.csv", deflated: bomb400MiB, size: 2 * MiB, crc: 0 }]),
          /\.csv$/,
          "zipped CSV",
        ),
      /^AAA: the zipped CSV's part "rates.csv" inflates past the 2.0 MiB it declares: refused$/,
      FeedError,
    );
  });
});

/** A gzip file around a raw deflate stream, its trailer declaring `declared` bytes. */
function gzipOf(deflated: Buffer, declared: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(0, 0);
  trailer.writeUInt32LE(declared % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), deflated, trailer]);
}

describe("gzip bombs", () => {
  it("reads an honest gzip file, and refuses a declared bomb and a lying one", async () => {
    expect(gunzipBody("AAA", gzipSync("date,rate\n")).toString()).toBe("date,rate\n");
    expect(() => gunzipBody("AAA", Buffer.from("date,rate\n"))).toThrow("AAA: not a gzip file");
    await refusedWithin(
      () => gunzipBody("AAA", gzipOf(bomb3GiB, 3072 * MiB)),
      /^AAA: the gzip file inflates to 3072.0 MiB, over the 512.0 MiB bound: refused$/,
      FeedError,
    );
    await refusedWithin(
      () => gunzipBody("AAA", gzipOf(bomb400MiB, 2 * MiB)),
      /^AAA: the gzip file inflates past the 2.0 MiB its trailer declares: refused$/,
      FeedError,
    );
  });
});

describe("an HTTP body sent compressed", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/rates.csv")
        return res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("date,rate\n2026-03-02,1.0850\n"));
      // A 3 GiB gzip whose trailer says 3 GiB: only the body cap and the ratio bound stop it.
      if (req.url === "/bomb")
        return res.writeHead(200, { "content-encoding": "gzip" }).end(gzipOf(bomb3GiB, 3072 * MiB));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is inflated within the body cap, and a bomb is refused at the cap", async () => {
    const http = createHttpClient({ retries: 0, maxBodyBytes: 16 * MiB });
    expect((await http.get(`${base}/rates.csv`)).body.toString()).toBe("date,rate\n2026-03-02,1.0850\n");
    await refusedWithin(
      () => http.get(`${base}/bomb`),
      /^http:\/\/127\.0\.0\.1:\d+\/bomb: the gzip body inflates past the 16.0 MiB bound$/,
      HttpError,
    );
  });
});
