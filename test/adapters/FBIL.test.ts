import { describe, expect, it } from "vitest";

import fbil from "../../adapters/FBIL.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.fbil.org.in/wasdm/refrates/fetchfiltered?fromDate=2026-03-17&toDate=2026-03-18&authenticated=false";
const parse = (body: Buffer | string) => fbil.parse(Buffer.from(body), { url: URL });

describe("FBIL adapter", () => {
  it("keeps the JSON digits and reads the unit count from subProdName", async () => {
    expect(await recordsOf(parse(fixture("FBIL/fetchfiltered.json")))).toEqual([
      { effectiveDate: "2026-03-18", currency: "USD", rate: "92.451400" },
      { effectiveDate: "2026-03-18", currency: "JPY", rate: "58.290000", unitMultiplier: 2 },
      { effectiveDate: "2026-03-18", currency: "IDR", rate: "54.640600", unitMultiplier: 4 },
      { effectiveDate: "2026-03-17", currency: "EUR", rate: "106.0950000000000000001" },
      // A unit count that is not a power of ten is divided out exactly and flagged.
      { effectiveDate: "2026-03-17", currency: "XYZ", rate: "2.5000005", derivation: "unit-normalised" },
    ]);
  });

  it("reads an empty window as no records", async () => {
    expect(await recordsOf(parse("[]"))).toEqual([]);
  });

  itRefusesWhole("FBIL", parse, [
    ["truncated JSON", '[{"processRunDate":"2026-03-18 00:00:00","subProdName":"INR / 1 USD","rate":92.45'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "another product (no INR / N XXX label)",
      '[{"processRunDate":"2026-03-18 00:00:00","subProdName":"MIBOR","rate":5.1}]',
    ],
  ]);

  const row = (date: string, label: string, rate: string) =>
    `{"processRunDate":"${date} 00:00:00","subProdName":"${label}","displayTime":"${date} 13:30:00","rate":${rate},"comments":""}`;
  const good = [row("2026-03-18", "INR / 1 USD", "92.451400"), row("2026-03-18", "INR / 100 JPY", "58.290000")];
  const taken = [
    { effectiveDate: "2026-03-18", currency: "USD", rate: "92.451400" },
    { effectiveDate: "2026-03-18", currency: "JPY", rate: "58.290000", unitMultiplier: 2 },
  ];
  it.each([
    ["a null rate", row("2026-03-18", "INR / 1 EUR", "null"), { kind: "bad-rate", rate: "null" }],
    ["a date that does not exist", row("2026-02-30", "INR / 1 EUR", "106.09"), { kind: "bad-date" }],
    ["a label that is not INR / N XXX", row("2026-03-18", "MIBOR", "5.1"), { kind: "unknown-currency" }],
    ["a unit count that is not a number", row("2026-03-18", "INR / ten IDR", "5.46"), { kind: "unknown-unit" }],
  ] as const)("holds %s on its row and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${[...good, bad].join(",")}]`), { records: taken, held: { ...held, source: "row 3" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded answer exactly (values read off the file by hand)", async () => {
    const r = recording("FBIL/001.json");
    const records = await recordsOf(fbil.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(12);
    expect(records[0]).toEqual({ effectiveDate: "2026-03-18", currency: "USD", rate: "92.451400" });
    expect(records[3]).toEqual({ effectiveDate: "2026-03-18", currency: "JPY", rate: "58.290000", unitMultiplier: 2 });
    expect(records[11]).toEqual({ effectiveDate: "2026-03-17", currency: "IDR", rate: "54.409300", unitMultiplier: 4 });
  });

  it("asks fetchfiltered for the range, and for the last 14 days as the latest", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await fbil.fetch({ kind: "range", from: "2026-01-01", to: "2026-03-31" }, { http, env: {} });
    await fbil.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://www.fbil.org.in/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=2026-01-01&toDate=2026-03-31",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/www\.fbil\.org\.in\/wasdm\/refrates\/fetchfiltered\?authenticated=false&fromDate=\d{4}-\d{2}-\d{2}&toDate=\d{4}-\d{2}-\d{2}$/,
    );
    const [, from, to] = /fromDate=([\d-]+)&toDate=([\d-]+)/.exec(http.seen[1]!.url)!;
    expect((Date.parse(to!) - Date.parse(from!)) / 86_400_000).toBe(14);
  });
});
