// A small published tree in the publisher's format (generations, manifest, `current` symlink), for
// tests of the server: one generation of a few banks, each with its Bank resource and Latest in four
// formats, written atomically as the publisher does.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

interface FileSpec {
  path: string;
  body: string | Buffer;
  contentType: string;
  compress: boolean;
}

const etagOf = (sha: string) => `"${Buffer.from(sha, "hex").toString("base64url").slice(0, 27)}"`;

export function bankFiles(id: string, date: string, rate = "20.611"): FileSpec[] {
  const json = `{"bankId":"${id}","baseCurrency":"CZK","quoteType":"Direct","rates":{"${date}":{"USD":{"rate":${rate}}}}}\n`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<ExchangeRates xmlns="urn:exrates:exchange-rates:1.0"><BankId>${id}</BankId><BaseCurrency>CZK</BaseCurrency><QuoteType>Direct</QuoteType><Rates effectiveDate="${date}"><Rate currency="USD" value="${rate}"/></Rates></ExchangeRates>\n`;
  const csv = `BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\n${id},USD,CZK,${date},${rate},1\n`;
  const xlsx = Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.from(`${id}-${date}-${rate}`)]);
  const bank = `{"id":"${id}","name":[{"languageCode":"en","name":"Bank ${id}","abbreviatedName":"${id}"}],"dailyUpdateTime":"14:30:00","bankCurrency":"CZK","countryCode":["CZ"],"region":["Europe"],"timeZone":{"windowsTimeZoneId":"Central Europe Standard Time","ianaTimeZoneName":"Europe/Prague"},"supportedFrequencies":["Daily"],"website":"https://www.cnb.cz/"}\n`;
  return [
    { path: `v1/banks/${id}.json`, body: bank, contentType: "application/json; charset=utf-8", compress: true },
    {
      path: `v1/Banks/${id}/DailyRates/Latest.json`,
      body: json,
      contentType: "application/json; charset=utf-8",
      compress: true,
    },
    {
      path: `v1/Banks/${id}/DailyRates/Latest.xml`,
      body: xml,
      contentType: "application/xml; charset=utf-8",
      compress: true,
    },
    { path: `v1/Banks/${id}/DailyRates/Latest.csv`, body: csv, contentType: "text/csv; charset=utf-8", compress: true },
    { path: `v1/Banks/${id}/DailyRates/Latest.xlsx`, body: xlsx, contentType: XLSX, compress: false },
  ];
}

/** Writes one generation and points `current` at it (atomically, like the publisher). */
export function publishGeneration(
  outDir: string,
  generation: string,
  banks: Array<{ id: string; date: string; rate?: string }>,
  lastModified = "2026-04-02T12:31:00.000Z",
): void {
  const genDir = join(outDir, ".generations", generation);
  const files: FileSpec[] = [
    {
      path: "v1/banks.json",
      body: JSON.stringify(banks.map((b) => ({ id: b.id, latest: b.date }))),
      contentType: "application/json; charset=utf-8",
      compress: true,
    },
    {
      path: "v1/schemas/exchange-rates-1.0.xsd",
      body: '<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>\n',
      contentType: "application/xml; charset=utf-8",
      compress: true,
    },
    ...banks.flatMap((b) => bankFiles(b.id, b.date, b.rate)),
  ];
  const manifest: Record<string, unknown> = { generation, publishedAt: new Date().toISOString(), files: {}, banks: {} };
  for (const f of files) {
    const body = Buffer.from(f.body);
    const full = join(genDir, f.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, body);
    const encodings: string[] = [];
    if (f.compress) {
      writeFileSync(`${full}.br`, brotliCompressSync(body));
      writeFileSync(`${full}.gz`, gzipSync(body));
      encodings.push("br", "gzip");
    }
    const sha = createHash("sha256").update(body).digest("hex");
    (manifest.files as Record<string, unknown>)[f.path] = {
      bytes: body.length,
      sha256: sha,
      etag: etagOf(sha),
      lastModified,
      contentType: f.contentType,
      encodings,
    };
  }
  for (const b of banks)
    (manifest.banks as Record<string, unknown>)[b.id] = { effectiveDate: b.date, inputHash: "x", lastModified };
  writeFileSync(join(genDir, "manifest.json"), JSON.stringify(manifest));
  const temp = join(outDir, `.current-${generation}`);
  rmSync(temp, { force: true });
  symlinkSync(join(".generations", generation), temp);
  renameSync(temp, join(outDir, "current"));
}
