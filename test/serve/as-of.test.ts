// What was known at an instant, on each store engine: the CNB's answer imported, then a corrected
// answer an hour later (a fake clock), and ?asOf= on Latest, a date and a range in all four formats
// gives the old figure before the correction and the new one after; an instant before anything was
// stored is 404 naming since when the bank has data, a future one 400; Corrections lists the revision
// with the sha256 of both answers.
import { createHash } from "node:crypto";

import { parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import cnb from "../../adapters/CNB.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import type { Store } from "../../src/store/database.js";
import type { FeedDocument } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

const DAY = "2026-03-02";
const FIRST_AT = "2026-03-02T13:31:00.000Z";
const CORRECTED_AT = "2026-03-02T14:31:00.000Z";
const BEFORE = "2026-03-02T14:00:00Z";
const AFTER = "2026-03-02T15:00:00+01:00"; // 14:00Z: before the correction, in another offset
const LATER = "2026-03-02T14:45:00Z";

const body = (eur: string) =>
  `{"rates":[{"validFor":"${DAY}","currencyCode":"EUR","amount":1,"rate":${eur}},` +
  `{"validFor":"${DAY}","currencyCode":"HUF","amount":100,"rate":6.304}]}`;
const answer = (eur: string, at: string): FeedDocument => ({
  url: "https://api.cnb.cz/cnbapi/exrates/daily?date=2026-03-02",
  method: "GET",
  status: 200,
  contentType: "application/json",
  body: Buffer.from(body(eur)),
  startedAt: new Date(at),
  finishedAt: new Date(at),
});
const sha = (eur: string) => createHash("sha256").update(body(eur)).digest("hex");

async function importAt(store: Store, eur: string, at: string): Promise<void> {
  vi.setSystemTime(new Date(at));
  await storeParsed(store, cnb.bank, await parseDocuments(cnb, [answer(eur, at)]), "fetch");
}

describe.each(storeDialects())("asOf and Corrections on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let server: InProcessServer<Store>;
  let auth: Record<string, string>;
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    ({ store, cleanup } = await dialect.open());
    await importAt(store, "24.170", FIRST_AT);
    await importAt(store, "24.185", CORRECTED_AT);
    vi.setSystemTime(new Date("2026-03-02T16:00:00Z"));
    server = await startTestServer({ store, publish: [{ id: "CNB", date: DAY }] });
    auth = { authorization: `Bearer ${await server.token()}` };
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server?.stop();
    await cleanup?.();
  });

  const paths = {
    Latest: "/v1/Banks/CNB/DailyRates/Latest",
    date: `/v1/Banks/CNB/DailyRates/${DAY}`,
    range: `/v1/Banks/CNB/DailyRates?from=2026-03-01&to=2026-03-02`,
  };
  const withAsOf = (path: string, format: string, asOf: string) => {
    const [p, q] = path.split("?");
    return `${p}.${format}?${q ? `${q}&` : ""}asOf=${encodeURIComponent(asOf)}`;
  };

  describe.each(Object.entries(paths))("%s", (_name, path) => {
    it.each([
      [BEFORE, "24.170"],
      [AFTER, "24.170"],
      [LATER, "24.185"],
    ])("as known at %s gives %s in JSON, XML, CSV and XLSX", async (asOf, eur) => {
      const instant = new Date(asOf).toISOString();
      const json = await get(withAsOf(path, "json", asOf));
      expect(json.status).toBe(200);
      expect(json.headers.get("x-as-of")).toBe(instant);
      const doc = parseLossless(await json.text()) as {
        asOf: string;
        rates: Record<string, Record<string, { rate: unknown }>>;
      };
      expect(doc.asOf).toBe(instant);
      expect(String(doc.rates[DAY]!.EUR!.rate)).toBe(eur);
      expect(String(doc.rates[DAY]!.HUF!.rate)).toBe("6.304");

      const xml = await (await get(withAsOf(path, "xml", asOf))).text();
      expect(xml).toContain(`<AsOf>${instant}</AsOf>`);
      expect(xml).toContain(`<Rate currency="EUR" value="${eur}"/>`);

      const csv = await (await get(withAsOf(path, "csv", asOf))).text();
      expect(csv.split("\n")).toContain(`CNB,EUR,CZK,${DAY},${eur},1`);

      const xlsx = await get(withAsOf(path, "xlsx", asOf));
      const wb = XLSX.read(Buffer.from(await xlsx.arrayBuffer()), { cellNF: true });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false });
      expect(rows.find((r) => r[1] === "EUR")?.[4]).toBe(eur);
    });
  });

  it("answers without asOf with the current figure", async () => {
    const doc = parseLossless(await (await get(paths.date)).text()) as {
      rates: Record<string, Record<string, { rate: unknown }>>;
    };
    expect(String(doc.rates[DAY]!.EUR!.rate)).toBe("24.185");
  });

  it("keeps the ETag of a past instant, and tells two instants apart", async () => {
    const a = await get(withAsOf(paths.date, "json", BEFORE));
    const b = await get(withAsOf(paths.date, "json", BEFORE));
    const c = await get(withAsOf(paths.date, "json", LATER));
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    expect(c.headers.get("etag")).not.toBe(a.headers.get("etag"));
    const again = await fetch(`${server.url}${withAsOf(paths.date, "json", BEFORE)}`, {
      headers: { ...auth, "if-none-match": a.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });

  it("is 404 before anything was stored, saying since when the bank has data", async () => {
    const res = await get(withAsOf(paths.Latest, "json", "2026-03-02T13:00:00Z"));
    expect(res.status).toBe(404);
    const problem = (await res.json()) as { detail: string; dataSince: string };
    expect(problem.dataSince).toBe(FIRST_AT);
    expect(problem.detail).toContain(FIRST_AT);
  });

  it("is 400 for an instant in the future or not an instant", async () => {
    expect((await get(withAsOf(paths.Latest, "json", "2026-03-02T17:00:00Z"))).status).toBe(400);
    expect((await get(withAsOf(paths.Latest, "json", "2026-03-02"))).status).toBe(400);
    expect((await get(withAsOf(paths.date, "json", "yesterday"))).status).toBe(400);
  });

  it("is 400 for an impossible calendar date or time, not a rolled-over instant", async () => {
    for (const instant of ["2026-02-30T00:00:00Z", "2026-02-29T12:00:00Z", "2026-03-01T24:00:00Z"]) {
      const res = await get(withAsOf(paths.Latest, "json", instant));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain(`"${instant}" is not an RFC 3339 instant`);
    }
  });

  it("leaves out dates not stored yet at the instant", async () => {
    const res = await get(withAsOf(paths.range, "json", "2026-03-02T13:31:00Z"));
    const doc = parseLossless(await res.text()) as { rates: Record<string, unknown> };
    expect(Object.keys(doc.rates)).toEqual([DAY]);
  });

  it("lists the correction with both figures, when each was stored and both answers' sha256", async () => {
    const res = await get("/v1/Banks/CNB/Corrections?from=2026-03-01&to=2026-03-02");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { corrections: unknown[] };
    expect(doc.corrections).toEqual([
      {
        effectiveDate: DAY,
        currency: "EUR",
        previous: {
          rate: "24.170",
          storedAt: FIRST_AT,
          source: { kind: "fetch", url: answer("", FIRST_AT).url, fetchedAt: FIRST_AT, sha256: sha("24.170") },
        },
        current: {
          rate: "24.185",
          storedAt: CORRECTED_AT,
          source: { kind: "fetch", url: answer("", FIRST_AT).url, fetchedAt: CORRECTED_AT, sha256: sha("24.185") },
        },
      },
    ]);
    const csv = (await (await get("/v1/Banks/CNB/Corrections.csv?from=2026-03-02")).text()).trimEnd().split("\n");
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`CNB,${DAY},EUR,24.170,1,${FIRST_AT},`);
    expect(csv[1]).toContain(sha("24.170"));
    expect(csv[1]).toContain(sha("24.185"));
    const xml = await (await get("/v1/Banks/CNB/Corrections.xml?from=2026-03-02")).text();
    expect(xml).toContain(`<Previous value="24.170" storedAt="${FIRST_AT}"`);
    expect(xml).toContain(`sha256="${sha("24.185")}"`);
    const xlsx = await get("/v1/Banks/CNB/Corrections.xlsx?from=2026-03-02");
    const wb = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Corrections!, { header: 1, raw: false });
    expect(rows[1]?.slice(0, 4)).toEqual(["CNB", DAY, "EUR", "24.170"]);
    // None made on another day.
    const none = (await (await get("/v1/Banks/CNB/Corrections?from=2026-03-03&to=2026-03-03")).json()) as {
      corrections: unknown[];
    };
    expect(none.corrections).toEqual([]);
  });

  describe("?provenance=true", () => {
    const URL_ = answer("", FIRST_AT).url;
    const first = { kind: "fetch", url: URL_, fetchedAt: FIRST_AT, sha256: sha("24.170") };
    const second = { kind: "fetch", url: URL_, fetchedAt: CORRECTED_AT, sha256: sha("24.185") };
    type Doc = { asOf?: string; rates: Record<string, Record<string, unknown>> };
    const provenanceOf = async (path: string) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const doc = parseLossless(await res.text()) as Doc;
      return { res, doc, sources: doc.rates[DAY]!.provenance };
    };

    it.each(Object.entries(paths))(
      "%s: names each answer a date's figures came from, now and as known before",
      async (_n, path) => {
        const [p, q] = path.split("?");
        const now = await provenanceOf(`${p}.json?${q ? `${q}&` : ""}provenance=true`);
        // EUR came from the corrected answer, HUF (unchanged) still from the first.
        expect(now.sources).toEqual([
          { ...first, currencies: ["HUF"] },
          { ...second, currencies: ["EUR"] },
        ]);
        expect(String((now.doc.rates[DAY]!.EUR as { rate: unknown }).rate)).toBe("24.185");
        // Without asOf the answer names no instant.
        expect(now.doc.asOf).toBeUndefined();
        expect(now.res.headers.get("x-as-of")).toBeNull();
        const before = await provenanceOf(`${withAsOf(path, "json", BEFORE)}&provenance=true`);
        expect(before.sources).toEqual([first]);
        expect(before.doc.asOf).toBe(new Date(BEFORE).toISOString());

        const xml = await (await get(`${p}.xml?${q ? `${q}&` : ""}provenance=true`)).text();
        expect(xml).toContain(
          `<Source kind="fetch" url="${URL_.replace(/&/g, "&amp;")}" fetchedAt="${FIRST_AT}" sha256="${sha("24.170")}" currencies="HUF"/>`,
        );
        expect(xml).toContain(`sha256="${sha("24.185")}" currencies="EUR"/>`);
        const valid = await validateXML({
          xml: [{ fileName: "p.xml", contents: xml }],
          schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
        });
        expect(valid.errors).toEqual([]);
      },
    );

    it("is absent without the parameter or with provenance=false, and refused when malformed or of CSV/XLSX", async () => {
      for (const q of ["", "?provenance=false", "?provenance=FALSE"]) {
        const text = await (await get(`${paths.date}.json${q}`)).text();
        expect(text).not.toContain("provenance");
        expect(text).toContain("24.185");
      }
      expect((await get(`${paths.Latest}.json?provenance=yes`)).status).toBe(400);
      expect((await get(`${paths.date}.csv?provenance=true`)).status).toBe(400);
      expect((await get(`${paths.range}&format=xlsx&provenance=true`)).status).toBe(400);
      expect((await get(`${paths.Latest}.json?provenance=true&base=EUR`)).status).toBe(400);
    });
  });
});
