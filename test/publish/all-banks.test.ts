// Every recording of every bank (the feed recordings, see test/support/feeds.ts) imported into one
// store (each as `exrates import` stores it), then one publish: each bank with rates gets its Bank
// document and Latest in four formats, and each is read back by an independent reader with the
// stored digits.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parseCsv } from "../support/csv.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { loadAdapters } from "../../src/feed/registry.js";
import { publicIdOf } from "../../src/feed/sources.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { latestDocument } from "../../src/publish/document.js";
import { latestPath, publish } from "../support/unsigned.js";
import { readCurrentGeneration } from "../../src/publish/tree.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import type { LatestRatesDocument } from "../../src/types.js";
import { recordingBody, recordings, sharedFeedsPresent } from "../support/feeds.js";
import type { LatestJson } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const adapters = await loadAdapters();
let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
const documents = new Map<string, LatestRatesDocument>();

describe.skipIf(!sharedFeedsPresent)("every bank's recordings, imported and published", () => {
  beforeAll(async () => {
    ctx = await tempStore();
    out = join(ctx.dir, "out");
    for (const r of recordings()) {
      const adapter = adapters.get(r.bank);
      if (!adapter) continue;
      const at = new Date("2026-11-21T12:00:00Z");
      const doc = {
        url: r.url,
        method: r.method as "GET" | "POST",
        status: 200,
        contentType: r.contentType,
        body: recordingBody(r),
        requestBody: r.requestBody,
        startedAt: at,
        finishedAt: at,
      };
      let parsed;
      try {
        parsed = await parseDocuments(adapter, [doc]);
      } catch {
        continue; // a recording the adapter refuses (pinned in the conformance test)
      }
      await storeParsed(ctx.store, adapter.bank, parsed, "fetch");
    }
    await publish(ctx.store, [...adapters.values()], out);
    for (const adapter of adapters.values()) {
      const doc = await latestDocument(ctx.store, adapter.bank);
      if (doc) documents.set(adapter.bank.id, doc);
    }
  }, 300_000);
  afterAll(() => ctx?.cleanup());

  it("publishes every bank (historical-only and credential banks included: their recordings exist)", () => {
    expect([...adapters.keys()].filter((id) => !documents.has(id))).toEqual([]);
  });

  it("writes each bank's four formats with the stored digits, the XML valid against the XSD", async () => {
    const { dir, manifest } = (await readCurrentGeneration(out))!;
    const problems: string[] = [];
    const xmls: { fileName: string; contents: string }[] = [];
    for (const [id, doc] of documents) {
      const read = (ext: "json" | "xml" | "csv" | "xlsx") =>
        readFileSync(join(dir, latestPath(id, ext, doc.frequency)));
      if (manifest.banks[id]?.effectiveDate !== doc.effectiveDate) problems.push(`${id}: manifest date`);
      const jsonText = read("json").toString();
      const json = JSON.parse(jsonText) as LatestJson;
      // A bank's second table (NBP's weekly, source NBPB) is published under its bank's id.
      if (json.bankId !== publicIdOf(id) || Object.keys(json.rates).join() !== doc.effectiveDate)
        problems.push(`${id}: JSON header`);
      for (const r of doc.rates)
        if (!jsonText.includes(`"rate": ${r.rate}`)) problems.push(`${id}: JSON lost ${r.currency} ${r.rate}`);
      xmls.push({ fileName: `${id}.xml`, contents: read("xml").toString() });
      const rows = parseCsv(read("csv").toString());
      const csvRates = rows.slice(1).map((row) => row[4]);
      if (csvRates.join() !== doc.rates.map((r) => r.rate).join()) problems.push(`${id}: CSV rates differ`);
      const wb = XLSX.read(read("xlsx"));
      const sheet = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false });
      if (sheet.length !== doc.rates.length + 1)
        problems.push(`${id}: XLSX has ${sheet.length - 1} rows for ${doc.rates.length} rates`);
      if (sheet.slice(1).some((row, i) => String(row[4]) !== doc.rates[i]!.rate))
        problems.push(`${id}: XLSX shows other digits`);
    }
    // Every bank's XML in one run of xmllint (each run starts a worker and compiles its WebAssembly):
    // each file is checked on its own, and an error names its file.
    const valid = await validateXML({ xml: xmls, schema: [{ fileName: "x.xsd", contents: EXCHANGE_RATES_XSD }] });
    for (const { fileName } of xmls) {
      const error = valid.errors.find((e) => e.loc?.fileName === fileName);
      if (error) problems.push(`${fileName.replace(/\.xml$/, "")}: XML invalid: ${error.message}`);
    }
    if (!valid.valid && !valid.errors.some((e) => xmls.some((x) => x.fileName === e.loc?.fileName)))
      problems.push(`XML invalid: ${valid.rawOutput}`);
    expect(problems).toEqual([]);
  }, 300_000);
});
