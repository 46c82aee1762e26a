import { describe, expect, it } from "vitest";

import nb from "../../adapters/NB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-16&endPeriod=2026-03-19";
const parse = (body: Buffer | string) => nb.parse(Buffer.from(body), { url: URL });

describe("NB adapter", () => {
  it("keeps per-100 quotes as unitMultiplier 2, skips the indices, blanks and non-daily rows", async () => {
    expect(await recordsOf(parse(fixture("NB/exr.csv")))).toEqual([
      { effectiveDate: "2026-03-16", currency: "JPY", rate: "6.1037", unitMultiplier: 2 },
      { effectiveDate: "2026-03-17", currency: "JPY", rate: "6.0410", unitMultiplier: 2 },
      { effectiveDate: "2026-03-16", currency: "USD", rate: "9.7134" },
      { effectiveDate: "2026-03-16", currency: "XDR", rate: "13.3364" },
    ]);
  });

  itRefusesWhole("NB", parse, [
    [
      "a truncated body",
      'FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,"2026-03-1',
    ],
    [
      "another bank's body",
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-03-02,1.0850\n",
    ],
    [
      "a wrong quote currency (another dataset)",
      "FREQ,BASE_CUR,QUOTE_CUR,UNIT_MULT,TIME_PERIOD,OBS_VALUE\nB,USD,SEK,0,2026-03-16,10.1\n",
    ],
  ]);

  const header = "FREQ,BASE_CUR,QUOTE_CUR,UNIT_MULT,TIME_PERIOD,OBS_VALUE\n";
  const good = "B,USD,NOK,0,2026-03-16,9.7134\nB,JPY,NOK,2,2026-03-16,6.1037\nB,I44,NOK,0,2026-03-16,112.5\n";
  it.each([
    ["a figure with a decimal comma (one field too many)", "B,EUR,NOK,0,2026-03-16,11,21\n", { kind: "bad-row" }],
    ["a figure that is not a number", 'B,EUR,NOK,0,2026-03-16,"11,21"\n', { kind: "bad-rate", rate: "11,21" }],
    ["a date that does not exist", "B,EUR,NOK,0,2026-02-30,11.21\n", { kind: "bad-date", effectiveDate: "2026-02-30" }],
    ["a unit multiplier that is not 0-9", "B,EUR,NOK,,2026-03-16,11.21\n", { kind: "unknown-unit" }],
    ["a code that is not ISO 4217", "B,XYZ,NOK,0,2026-03-16,11.21\n", { kind: "unknown-currency", currency: "XYZ" }],
  ] as const)("holds %s on its line and takes the other rows (the index series skipped)", async (_what, bad, held) => {
    await expectOneHeld(parse(header + good + bad), {
      records: [
        { effectiveDate: "2026-03-16", currency: "USD", rate: "9.7134" },
        { effectiveDate: "2026-03-16", currency: "JPY", rate: "6.1037", unitMultiplier: 2 },
      ],
      held: { ...held, source: "line 5" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NB/001.csv");
    const records = await recordsOf(nb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-16", "HUF")).toEqual({
      effectiveDate: "2026-03-16",
      currency: "HUF",
      rate: "2.857",
      unitMultiplier: 2,
    });
    expect(find("2026-03-18", "USD")).toEqual({ effectiveDate: "2026-03-18", currency: "USD", rate: "9.583" });
    expect(find("2026-03-19", "EUR")).toEqual({ effectiveDate: "2026-03-19", currency: "EUR", rate: "10.996" });
    expect(find("2026-03-16", "I44")).toBeUndefined();
    expect(find("2026-03-16", "TWI")).toBeUndefined();
    expect(records).toHaveLength(36 * 4);
  });

  it("asks the B..NOK.SP key with start and end periods", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await nb.fetch({ kind: "range", from: "2026-03-16", to: "2026-03-19" }, { http, env: {} });
    await nb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-16&endPeriod=2026-03-19",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/data\.norges-bank\.no\/api\/data\/EXR\/B\.\.NOK\.SP\?format=csvdata&startPeriod=\d{4}-\d{2}-\d{2}&endPeriod=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
