// A period source as known at an instant, on each store engine: HMRC's August XML stored on 2026-07-23,
// then its CSV (TRY's figure corrected mid-month) on 2026-08-18 (a fake clock), and ?asOf= on a date, on
// Latest and on a range gives what was stored by then; an instant before anything was stored is 404.
// test/serve/periods.test.ts covers the rest of the period paths on SQLite.
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import hmrc from "../../adapters/HMRC.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import type { Store } from "../../src/store/database.js";
import type { FeedDocument } from "../../src/types.js";
import { fixture } from "../support/fixtures.js";
import { storeDialects } from "../support/postgres.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

const FILES = "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files";
const answer = (file: string, contentType: string, at: string): FeedDocument => ({
  url: `${FILES}/${file.split("/")[1]}`,
  method: "GET",
  status: 200,
  contentType,
  body: fixture(file),
  startedAt: new Date(at),
  finishedAt: new Date(at),
});

async function importAt(store: Store, doc: FeedDocument): Promise<void> {
  vi.setSystemTime(doc.startedAt);
  await storeParsed(store, hmrc.bank, await parseDocuments(hmrc, [doc], doc.startedAt), "fetch");
}

type Entry = { rate: unknown; validFrom?: string; validTo?: string };
type Rates = Record<string, Record<string, Entry>>;
const text = (e: Entry | undefined) => (e && isLosslessNumber(e.rate) ? e.rate.value : undefined);

describe.each(storeDialects())("a monthly source as known at an instant on $name", (dialect) => {
  let cleanup: () => Promise<void>;
  let server: InProcessServer<Store>;
  let auth: Record<string, string>;
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });
  const rates = async (path: string): Promise<Rates> => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (parseLossless(await res.text()) as { rates: Rates }).rates;
  };
  const before = "2026-08-01T00:00:00Z";

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let store: Store;
    ({ store, cleanup } = await dialect.open());
    await importAt(store, answer("HMRC/monthly_xml_2026-08.xml", "application/xml", "2026-07-23T11:00:00Z"));
    await importAt(store, answer("HMRC/monthly_csv_2026-8.csv", "text/csv", "2026-08-18T11:00:00Z"));
    vi.setSystemTime(new Date("2026-09-01T12:00:00Z"));
    server = await startTestServer({ store, publish: false });
    auth = { authorization: `Bearer ${await server.token()}` };
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server?.stop();
    await cleanup?.();
  });

  it("answers a date with the month's figures as stored then, and today with the correction", async () => {
    const then = await rates(`/v1/Banks/HMRC/MonthlyRates/2026-08-31.json?asOf=${before}`);
    expect(Object.keys(then)).toEqual(["2026-08-01"]);
    expect(text(then["2026-08-01"]!.JPY)).toBe("196.3400");
    expect(then["2026-08-01"]!.JPY).toMatchObject({ validFrom: "2026-08-01", validTo: "2026-08-31" });
    expect(then["2026-08-01"]!.TRY).toBeUndefined();
    const now = await rates("/v1/Banks/HMRC/MonthlyRates/2026-08-31.json");
    expect(text(now["2026-08-18"]!.TRY)).toBe("58.0400");
  });

  it("answers Latest and a range as known then", async () => {
    const latest = await rates(`/v1/Banks/HMRC/MonthlyRates/Latest.json?asOf=${before}`);
    expect(Object.keys(latest)).toEqual(["2026-08-01"]);
    const range = await rates(`/v1/Banks/HMRC/MonthlyRates.json?from=2026-08-10&to=2026-08-31&asOf=${before}`);
    expect(Object.keys(range)).toEqual(["2026-08-01"]);
    const rangeNow = await rates("/v1/Banks/HMRC/MonthlyRates.json?from=2026-08-10&to=2026-08-31");
    expect(Object.keys(rangeNow)).toEqual(["2026-08-01", "2026-08-18"]);
  });

  it("answers an instant before anything was stored with a 404 naming since when", async () => {
    const early = await get("/v1/Banks/HMRC/MonthlyRates/2026-08-15?asOf=2026-07-01T00:00:00Z");
    expect(early.status).toBe(404);
    expect(((await early.json()) as { detail: string }).detail).toMatch(/Nothing of bank HMRC was stored yet/);
  });
});
