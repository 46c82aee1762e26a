// A date beyond what a bank can have published (9999-12-31 in a feed's answer) is held at ingest: stored,
// it would be the bank's Latest for good, every later run planning nothing and real data stored only as
// revisions. The limit is the bank's tomorrow in its zone, or what its descriptor declares; the clock is
// the ingest's, passed in. Releasing such a row takes --allow-future.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import hmrc from "../../adapters/HMRC.js";
import { parseDocuments } from "../../src/ingest/ingest.js";
import { dateLimit, gateRecords } from "../../src/ingest/validate.js";
import type { FeedDocument, RateRecord } from "../../src/types.js";
import { exrates } from "../support/cli.js";
import { fixture } from "../support/fixtures.js";
import { testBank } from "../support/publish.js";

const usd = (effectiveDate: string, rate = "20.5"): RateRecord => ({ effectiveDate, currency: "USD", rate });

describe("the date limit", () => {
  // 23:30 UTC on Friday 2026-11-27 is already Saturday 2026-11-28 in Prague.
  const now = new Date("2026-11-27T23:30:00Z");

  it("is the bank's tomorrow in its zone by default, or the days ahead it declares", () => {
    expect(dateLimit({ timeZone: "Europe/Prague" }, now)).toEqual({
      latest: "2026-11-29",
      what: "tomorrow in Europe/Prague",
    });
    expect(dateLimit({ timeZone: "America/New_York", maxDaysAhead: 4 }, now)).toEqual({
      latest: "2026-12-01",
      what: "4 days after today in America/New_York",
    });
  });

  it("reaches the start of the period a period source's run publishes in advance, and no further", () => {
    const monthly = { kind: "nthLastInMonth", n: 2 } as const;
    const hmrcLike = { timeZone: "Europe/London", cadence: { days: monthly, covers: "nextMonthStart" as const } };
    // HMRC's run on the penultimate Thursday of November brings December's figures.
    expect(dateLimit(hmrcLike, now)).toEqual({
      latest: "2026-12-01",
      what: "the start of the period a run on 2026-11-27 publishes",
    });
    expect(dateLimit(hmrcLike, new Date("2026-11-19T11:00:00Z")).latest).toBe("2026-12-01");
    const { records, held } = gateRecords("GBP", [usd("2026-12-01"), usd("2027-01-01")], [], dateLimit(hmrcLike, now));
    expect(records.map((r) => r.effectiveDate)).toEqual(["2026-12-01"]);
    expect(held.map((h) => [h.kind, h.effectiveDate])).toEqual([["future-date", "2027-01-01"]]);
    // A source whose run covers a past period keeps the default: its tomorrow.
    const bisLike = {
      timeZone: "Europe/Zurich",
      cadence: { days: { kind: "weekly" } as const, covers: "previousMonthEnd" as const },
    };
    expect(dateLimit(bisLike, now).latest).toBe("2026-11-29");
  });

  it("takes HMRC's next month from its own answer, fetched on the penultimate Thursday before", async () => {
    const body = fixture("HMRC/monthly_xml_2026-08.xml");
    const at = new Date("2026-07-23T11:00:00Z");
    const doc: FeedDocument = {
      url: "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_2026-08.xml",
      method: "GET",
      status: 200,
      contentType: "application/xml",
      body,
      startedAt: at,
      finishedAt: at,
    };
    const [parsed] = await parseDocuments(hmrc, [doc], at);
    expect(parsed!.records.find((r) => r.currency === "JPY")).toMatchObject({
      effectiveDate: "2026-08-01",
      rate: "196.3400",
    });
    expect(parsed!.held.filter((h) => h.kind === "future-date")).toEqual([]);
  });

  it("holds a record dated beyond it, with its reason, and keeps the rest", () => {
    const limit = dateLimit({ timeZone: "Europe/Prague" }, now);
    const { records, held } = gateRecords(
      "CZK",
      [usd("2026-11-27"), usd("2026-11-29", "20.6"), usd("2026-11-30", "20.7"), usd("9999-12-31", "1")],
      [],
      limit,
    );
    expect(records.map((r) => r.effectiveDate)).toEqual(["2026-11-27", "2026-11-29"]);
    expect(held).toEqual([
      {
        kind: "future-date",
        reason:
          "effective date 2026-11-30 is after 2026-11-29 (tomorrow in Europe/Prague), the latest the bank can have published: a date from the future would stay Latest",
        source: "record 3",
        effectiveDate: "2026-11-30",
        currency: "USD",
        rate: "20.7",
      },
      expect.objectContaining({ kind: "future-date", effectiveDate: "9999-12-31" }),
    ]);
  });

  it("is taken from the clock passed to the ingest, not from parse", async () => {
    const bank = { ...testBank("AAA"), parse: () => [usd("2026-11-30")] };
    const at = new Date();
    const doc: FeedDocument = {
      url: "https://bank.example/feed",
      method: "GET",
      status: 200,
      contentType: "",
      body: Buffer.from("x"),
      startedAt: at,
      finishedAt: at,
    };
    const [early] = await parseDocuments(bank, [doc], new Date("2026-11-27T12:00:00Z"));
    expect(early!.held.map((h) => h.kind)).toEqual(["future-date"]);
    const [later] = await parseDocuments(bank, [doc], new Date("2026-11-29T12:00:00Z"));
    expect(later!.records).toHaveLength(1);
  });
});

describe("exrates import of an answer dated 9999-12-31", () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "exrates-future-"));
    env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
    const rates = [
      { validFor: "2026-03-02", currencyCode: "USD", amount: 1, rate: 20.611 },
      { validFor: "9999-12-31", currencyCode: "USD", amount: 1, rate: 1.0 },
    ];
    writeFileSync(join(dir, "answer.json"), JSON.stringify({ rates }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds that row and publishes the real date as Latest", () => {
    const r = exrates(["import", "CNB", join(dir, "answer.json")], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^CNB: 1 added, 0 revised, 0 unchanged \(2026-03-02 to 2026-03-02\), 1 held/);
    const latest = readFileSync(join(dir, "out/v1/Banks/CNB/DailyRates/Latest.json"), "utf8");
    expect(latest).toContain('"2026-03-02"');
    expect(latest).not.toContain("9999");
    const [held] = JSON.parse(exrates(["anomalies", "CNB", "--json"], env).stdout) as Array<Record<string, unknown>>;
    expect(held).toMatchObject({ kind: "future-date", effectiveDate: "9999-12-31", status: "held" });
  });

  it("releases it only with --allow-future", () => {
    const [held] = JSON.parse(exrates(["anomalies", "CNB", "--json"], env).stdout) as Array<{ id: number }>;
    const refused = exrates(["anomalies", "release", String(held!.id)], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^exrates: anomaly ${held!.id} is dated 9999-12-31, after \\d{4}-\\d\\d-\\d\\d \\(tomorrow in Europe/Prague\\): released, it would be CNB's Latest, above every real publication, until a later date is stored; add --allow-future to release it all the same\\n$`,
      ),
    );
    expect(readFileSync(join(dir, "out/v1/Banks/CNB/DailyRates/Latest.json"), "utf8")).not.toContain("9999");
    const released = exrates(["anomalies", "release", String(held!.id), "--allow-future", "--by", "auditor"], env);
    expect(released.status, released.stderr).toBe(0);
    expect(readFileSync(join(dir, "out/v1/Banks/CNB/DailyRates/Latest.json"), "utf8")).toContain('"9999-12-31"');
  });
});
