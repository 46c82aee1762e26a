import { describe, expect, it } from "vitest";

import ecb from "../../adapters/ECB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = async (body: Buffer | string) =>
  ecb.parse(Buffer.from(body), { url: "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A?format=csvdata" });

describe("ECB adapter", () => {
  it("finds columns by name in the live 10-column shape, keeps trailing zeros, skips empty, monthly and non-currency rows", async () => {
    expect(await recordsOf(parse(fixture("ECB/live-shape.csv")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "1.0850" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "162.30" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "1.0849" },
    ]);
  });

  itRefusesWhole("ECB", parse, [
    ["a CSV without OBS_VALUE", "FREQ,CURRENCY,TIME_PERIOD\nD,USD,2026-03-02\n"],
    [
      "another bank's CSV",
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\nCNB,USD,CZK,2026-03-02,20.611,1\n",
    ],
    ["an unterminated quote", 'FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE,TITLE\nD,USD,2026-03-02,1.08,"US dollar\n'],
  ]);

  const header = "FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\n";
  const good = "D,USD,2026-03-02,1.0850\nD,JPY,2026-03-02,162.30\n";
  const taken = [
    { effectiveDate: "2026-03-02", currency: "USD", rate: "1.0850" },
    { effectiveDate: "2026-03-02", currency: "JPY", rate: "162.30" },
  ];
  it.each([
    ["a date that does not exist", "D,GBP,2026-02-30,0.85\n", { kind: "bad-date", effectiveDate: "2026-02-30" }],
    ["a figure that is not a number", "D,GBP,2026-03-02,1.08e3\n", { kind: "bad-rate", rate: "1.08e3" }],
    [
      "a code that is neither ISO 4217 nor a market code",
      "D,QQQ,2026-03-02,7.81\n",
      { kind: "unknown-currency", currency: "QQQ" },
    ],
  ] as const)("holds %s on its line and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(header + good + bad), { records: taken, held: { ...held, source: "line 4" } });
  });

  it("asks for the last ten days for the latest and for the exact range otherwise", async () => {
    const http = fakeHttp(() => ({ body: "FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\n" }));
    await ecb.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    await ecb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A?format=csvdata&startPeriod=2025-01-01&endPeriod=2025-12-31",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/data-api\.ecb\.europa\.eu\/service\/data\/EXR\/D\.\.EUR\.SP00\.A\?format=csvdata&startPeriod=\d{4}-\d{2}-\d{2}&endPeriod=\d{4}-\d{2}-\d{2}$/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("ECB/002.csv");
    const records = await recordsOf(ecb.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(22 * 29);
    expect(records[0]).toEqual({ effectiveDate: "2026-02-17", currency: "AUD", rate: "1.6776" });
    expect(records.find((x) => x.currency === "ZAR" && x.effectiveDate === "2026-03-18")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "ZAR",
      rate: "19.4174",
    });
  });
});
