import { describe, expect, it } from "vitest";

import boc from "../../adapters/BOC.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-03-12";
const parse = (body: Buffer | string) => boc.parse(Buffer.from(body), { url: URL });

describe("BOC adapter", () => {
  it("reads every series as CAD per unit, keeping the published digits and skipping missing values", async () => {
    expect(await recordsOf(parse(fixture("BOC/observations.json")))).toEqual([
      { effectiveDate: "2026-03-12", currency: "USD", rate: "1.3600" },
      { effectiveDate: "2026-03-12", currency: "IDR", rate: "0.000080" },
      { effectiveDate: "2026-03-12", currency: "JPY", rate: "0.008590" },
      { effectiveDate: "2026-03-13", currency: "USD", rate: "1.3675" },
    ]);
  });

  itRefusesWhole("BOC", parse, [
    ["truncated JSON", '{"seriesDetail":{},"observations":[{"d":"2026-03-12","FXUSDCAD":{"v":"1.36'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "another Valet group",
      '{"seriesDetail":{"V39079":{"label":"Target for the overnight rate"}},"observations":[{"d":"2026-03-12","V39079":{"v":"2.25"}}]}',
    ],
  ]);

  const detail = '{"FXUSDCAD":{"label":"USD/CAD"},"FXJPYCAD":{"label":"JPY/CAD"}}';
  const answer = (bad: string) =>
    `{"seriesDetail":${detail},"observations":[{"d":"2026-03-12","FXUSDCAD":{"v":"1.3600"},"FXJPYCAD":{"v":"0.008590"}},${bad}]}`;
  const taken = [
    { effectiveDate: "2026-03-12", currency: "USD", rate: "1.3600" },
    { effectiveDate: "2026-03-12", currency: "JPY", rate: "0.008590" },
  ];
  it.each([
    [
      "a date that does not exist",
      '{"d":"2026-02-30","FXUSDCAD":{"v":"1.36"}}',
      taken,
      { kind: "bad-date", effectiveDate: "2026-02-30", source: "observations[1]" },
    ],
    [
      "a figure that is not a number",
      '{"d":"2026-03-13","FXUSDCAD":{"v":"1,36"},"FXJPYCAD":{"v":"0.008600"}}',
      [...taken, { effectiveDate: "2026-03-13", currency: "JPY", rate: "0.008600" }],
      { kind: "bad-rate", rate: "1,36", source: "observations[1] FXUSDCAD" },
    ],
    [
      "a series that is no FX rate",
      '{"d":"2026-03-13","AVG.INTWO":{"v":"1.0"},"FXJPYCAD":{"v":"0.008600"}}',
      [...taken, { effectiveDate: "2026-03-13", currency: "JPY", rate: "0.008600" }],
      { kind: "unknown-currency", currency: "AVG.INTWO", source: "observations[1] AVG.INTWO" },
    ],
    [
      "a code that is neither ISO 4217 nor a market code",
      '{"d":"2026-03-13","FXQQQCAD":{"v":"0.19"},"FXJPYCAD":{"v":"0.008600"}}',
      [...taken, { effectiveDate: "2026-03-13", currency: "JPY", rate: "0.008600" }],
      { kind: "unknown-currency", source: "observations[1] FXQQQCAD" },
    ],
  ] as const)("holds %s and takes the other values", async (_what, bad, records, held) => {
    await expectOneHeld(parse(answer(bad)), { records: [...records], held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOC/001.json");
    const records = await recordsOf(boc.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-16", "USD")).toEqual({ effectiveDate: "2026-03-16", currency: "USD", rate: "1.3675" });
    expect(find("2026-03-16", "IDR")).toEqual({ effectiveDate: "2026-03-16", currency: "IDR", rate: "0.000080" });
    expect(find("2026-03-16", "TRY")).toEqual({ effectiveDate: "2026-03-16", currency: "TRY", rate: "0.03100" });
    expect(records.filter((x) => x.effectiveDate === "2026-03-16")).toHaveLength(23);
  });

  it("asks Valet from ten days back for the latest and with both bounds for a range", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await boc.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2025-01-01&end_date=2025-12-31",
    ]);
    await boc.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/www\.bankofcanada\.ca\/valet\/observations\/group\/FX_RATES_DAILY\/json\?start_date=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
