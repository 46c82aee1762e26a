// Provenance tells what happened (issue 35, item 8), on each store engine: the CNB's answer fetched, then
// a hand-edited copy of it imported (one figure changed) and another file imported with --url. The
// fetched figures still name the URL asked and when; the imported ones say import, the file's base name
// (never its directory), its sha256, who imported it and when, in JSON and XML (valid against the XSD),
// and in Corrections in all formats; a URL given with --url is `declaredUrl`, never shown as fetched.
import { createHash } from "node:crypto";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateXML } from "xmllint-wasm";

import cnb from "../../adapters/CNB.js";
import { importFile, parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import type { Store } from "../../src/store/database.js";
import { storeDialects } from "../support/postgres.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

const URL_ = "https://api.cnb.cz/cnbapi/exrates/daily?date=2026-03-02";
const DECLARED = "https://api.cnb.cz/cnbapi/exrates/daily?date=2026-03-03";
const FETCHED_AT = "2026-03-02T13:31:00.000Z";
const IMPORTED_AT = "2026-03-02T15:00:00.000Z";
const DECLARED_AT = "2026-03-03T14:00:00.000Z";

const body = (day: string, eur: string) =>
  `{"rates":[{"validFor":"${day}","currencyCode":"EUR","amount":1,"rate":${eur}},` +
  `{"validFor":"${day}","currencyCode":"HUF","amount":100,"rate":6.304}]}`;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const xsdErrors = async (xml: string) =>
  (
    await validateXML({
      xml: [{ fileName: "p.xml", contents: xml }],
      schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
    })
  ).errors;

describe.each(storeDialects())("an imported file's provenance on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let server: InProcessServer<Store>;
  let auth: Record<string, string>;
  let dir: string;
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });
  const fetched = body("2026-03-02", "24.170");
  const edited = body("2026-03-02", "24.999");
  const declared = body("2026-03-03", "24.200");

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    ({ store, cleanup } = await dialect.open());
    dir = await mkdtemp(join(tmpdir(), "exrates-import-"));
    await mkdir(join(dir, "home", "alice"), { recursive: true });
    vi.setSystemTime(new Date(FETCHED_AT));
    const answer = { url: URL_, method: "GET" as const, status: 200, contentType: "application/json" };
    const at = new Date(FETCHED_AT);
    const doc = { ...answer, body: Buffer.from(fetched), startedAt: at, finishedAt: at };
    await storeParsed(store, cnb.bank, await parseDocuments(cnb, [doc]), "fetch");
    vi.setSystemTime(new Date(IMPORTED_AT));
    await writeFile(join(dir, "home", "alice", "edited.json"), edited);
    await importFile(() => Promise.resolve(store), cnb, join(dir, "home", "alice", "edited.json"), {}, "alice");
    vi.setSystemTime(new Date(DECLARED_AT));
    await writeFile(join(dir, "declared.json"), declared);
    await importFile(() => Promise.resolve(store), cnb, join(dir, "declared.json"), { url: DECLARED }, "bob");
    vi.setSystemTime(new Date("2026-03-03T16:00:00Z"));
    server = await startTestServer({ store, publish: [{ id: "CNB", date: "2026-03-03" }] });
    auth = { authorization: `Bearer ${await server.token()}` };
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server?.stop();
    await cleanup?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fetchSource = { kind: "fetch", url: URL_, fetchedAt: FETCHED_AT, sha256: sha(fetched) };
  const importSource = {
    kind: "import",
    file: "edited.json",
    importedBy: "alice",
    importedAt: IMPORTED_AT,
    sha256: sha(edited),
  };

  it("?provenance=true: the fetched figure names its URL, the hand-edited one says import, file, sha256, who", async () => {
    const res = await get("/v1/Banks/CNB/DailyRates/2026-03-02.json?provenance=true");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(dir); // the base name only: no directory of the importer's
    const doc = parseLossless(text) as { rates: Record<string, { provenance: unknown[] }> };
    expect(doc.rates["2026-03-02"]!.provenance).toEqual([
      { ...fetchSource, currencies: ["HUF"] },
      { ...importSource, currencies: ["EUR"] },
    ]);
    const xml = await (await get("/v1/Banks/CNB/DailyRates/2026-03-02.xml?provenance=true")).text();
    expect(xml).toContain(
      `<Source kind="fetch" url="${URL_}" fetchedAt="${FETCHED_AT}" sha256="${sha(fetched)}" currencies="HUF"/>`,
    );
    expect(xml).toContain(
      `<Source kind="import" file="edited.json" importedBy="alice" importedAt="${IMPORTED_AT}" sha256="${sha(edited)}" currencies="EUR"/>`,
    );
    expect(await xsdErrors(xml)).toEqual([]);
  });

  it("a URL given with --url is declared by the importer, never shown as fetched", async () => {
    const doc = (await (await get("/v1/Banks/CNB/DailyRates/2026-03-03.json?provenance=true")).json()) as {
      rates: Record<string, { provenance: Array<Record<string, unknown>> }>;
    };
    const [source] = doc.rates["2026-03-03"]!.provenance;
    expect(source).toEqual({
      kind: "import",
      file: "declared.json",
      importedBy: "bob",
      importedAt: DECLARED_AT,
      sha256: sha(declared),
      declaredUrl: DECLARED,
    });
    const xml = await (await get("/v1/Banks/CNB/DailyRates/2026-03-03.xml?provenance=true")).text();
    expect(xml).toContain(`declaredUrl="${DECLARED}"`);
    expect(xml).not.toContain("fetchedAt=");
    expect(await xsdErrors(xml)).toEqual([]);
  });

  it("Corrections: the previous figure fetched, the current one imported, in every format", async () => {
    const doc = (await (await get("/v1/Banks/CNB/Corrections?from=2026-03-01&to=2026-03-03")).json()) as {
      corrections: unknown[];
    };
    expect(doc.corrections).toEqual([
      {
        effectiveDate: "2026-03-02",
        currency: "EUR",
        previous: { rate: "24.170", storedAt: FETCHED_AT, source: fetchSource },
        current: { rate: "24.999", storedAt: IMPORTED_AT, source: importSource },
      },
    ]);
    const csv = (await (await get("/v1/Banks/CNB/Corrections.csv?from=2026-03-01&to=2026-03-03")).text())
      .trimEnd()
      .split("\n");
    expect(csv[0]).toMatch(
      /,Previous Kind,Previous File,Previous Imported By,Previous Imported At,Kind,File,Imported By,Imported At$/,
    );
    // An import's Source (no URL declared) and Fetched At are empty: its own columns say what happened.
    expect(csv[1]).toBe(
      `CNB,2026-03-02,EUR,24.170,1,${FETCHED_AT},${URL_},${FETCHED_AT},${sha(fetched)},` +
        `24.999,1,${IMPORTED_AT},,,${sha(edited)},fetch,,,,import,edited.json,alice,${IMPORTED_AT}`,
    );
    const xml = await (await get("/v1/Banks/CNB/Corrections.xml?from=2026-03-01&to=2026-03-03")).text();
    expect(xml).toContain(
      `<Current value="24.999" storedAt="${IMPORTED_AT}" kind="import" file="edited.json" importedBy="alice" importedAt="${IMPORTED_AT}" sha256="${sha(edited)}"/>`,
    );
    expect(xml).toContain(`<Previous value="24.170" storedAt="${FETCHED_AT}" kind="fetch" source="${URL_}"`);
    expect(await xsdErrors(xml)).toEqual([]);
  });
});
