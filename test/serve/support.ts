// Test support for the server: a small published tree in the publisher's format (generations,
// manifest, `current` symlink), a store with clients, and a running server on 127.0.0.1:0.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

import pino from "pino";

import { createClient } from "../../src/auth/clients.js";
import { loadConfig, type Config } from "../../src/config.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/database.js";
import { startServer, type RunningServer, type ServerOptions } from "../../src/serve/server.js";

export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const silentLog = pino({ level: "silent" });

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

export interface Harness {
  root: string;
  config: Config;
  store: SqliteStore;
  server: RunningServer;
  url: string;
  issuer: string;
  tokenUrl: string;
  /** A client with the API scope: id and secret. */
  client: { id: string; secret: string };
  token(clientId?: string, secret?: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(
  options: { env?: Record<string, string>; publish?: boolean; server?: Partial<ServerOptions> } = {},
): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), "exrates-serve-"));
  const config = loadConfig({
    EXRATES_DATA_DIR: join(root, "data"),
    EXRATES_OUT_DIR: join(root, "out"),
    EXRATES_HOST: "127.0.0.1",
    EXRATES_PORT: "0",
    ...options.env,
  });
  mkdirSync(config.outDir, { recursive: true });
  if (options.publish !== false)
    publishGeneration(config.outDir, "20260402T123100000Z-1", [
      { id: "CNB", date: "2026-04-02" },
      { id: "ECB", date: "2026-04-01" },
    ]);
  const store = await openSqliteStore(config.databasePath);
  const created = await createClient(store, { clientId: "erp", scope: config.scope });
  const server = await startServer({ config, store, log: silentLog, ...options.server });
  const tokenUrl = `${server.issuer}/protocol/openid-connect/token`;
  const harness: Harness = {
    root,
    config,
    store,
    server,
    url: server.url,
    issuer: server.issuer,
    tokenUrl,
    client: { id: created.clientId, secret: created.clientSecret },
    async token(clientId = created.clientId, secret = created.clientSecret, scope = config.scope) {
      const response = await fetch(tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: clientId,
          client_secret: secret,
          scope,
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (response.status !== 200 || !body.access_token)
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async close() {
      await server.close();
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A raw HTTP/1.1 request (fetch normalises paths; path tricks need the bytes as sent). */
export async function rawRequest(
  url: string,
  requestLine: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { request } = await import("node:http");
  const target = new URL(url);
  const [method, path] = requestLine.split(" ") as [string, string];
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method, path, headers, insecureHTTPParser: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
