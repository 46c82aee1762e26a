import { describe, expect, it } from "vitest";

import dnb, { DNB_CURRENCIES, dnbRequest } from "../../adapters/DNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.statbank.dk/v1/data";
const parse = (body: Buffer | string) => dnb.parse(Buffer.from(body), { url: URL });

describe("DNB adapter", () => {
  it("keeps the per-100 figures as published with unitMultiplier 2, skipping '..'", async () => {
    expect(await recordsOf(parse(fixture("DNB/dnvald.csv")))).toEqual([
      { effectiveDate: "2025-07-08", currency: "EUR", rate: "746.0400", unitMultiplier: 2 },
      { effectiveDate: "2025-07-08", currency: "IDR", rate: "0.0396", unitMultiplier: 2 },
      { effectiveDate: "2025-07-08", currency: "JPY", rate: "4.3790", unitMultiplier: 2 },
      { effectiveDate: "2025-07-09", currency: "USD", rate: "636.8100", unitMultiplier: 2 },
    ]);
  });

  itRefusesWhole("DNB", parse, [
    ["a truncated body", 'VALUTA;KURTYP;TID;INDHOLD\r\nEUR;KBH;2025M07D08;746.0400\r\nUSD;KBH;"2025M0'],
    [
      "another bank's body",
      "FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,2026-03-16,9.7134\n",
    ],
    ["a StatBank error", '{"errorTypeCode":"EXTRACT-NOTFOUND","message":"Variable VALUTA: value XXX not found"}'],
    ["another rate type", "VALUTA;KURTYP;TID;INDHOLD\r\nEUR;KBS;2025M07D08;746.0400\r\n"],
  ]);

  it.each([
    ["a day that does not exist", "GBP;KBH;2025M02D30;862.1000", { kind: "bad-date", effectiveDate: "2025M02D30" }],
    ["a figure that is not a number", "GBP;KBH;2025M07D08;862,1000", { kind: "bad-rate", rate: "862,1000" }],
  ] as const)("holds a line with %s and takes the others", async (_what, bad, held) => {
    const body = `VALUTA;KURTYP;TID;INDHOLD\r\nEUR;KBH;2025M07D08;746.0400\r\n${bad}\r\nJPY;KBH;2025M07D08;4.3790\r\n`;
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2025-07-08", currency: "EUR", rate: "746.0400", unitMultiplier: 2 },
        { effectiveDate: "2025-07-08", currency: "JPY", rate: "4.3790", unitMultiplier: 2 },
      ],
      held: { ...held, currency: "GBP", source: "line 3" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("DNB/001.csv");
    const records = await recordsOf(dnb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(30 * 161);
    expect(find("2025-07-08", "AUD")).toEqual({
      effectiveDate: "2025-07-08",
      currency: "AUD",
      rate: "416.2300",
      unitMultiplier: 2,
    });
    expect(find("2025-07-08", "IDR")).toEqual({
      effectiveDate: "2025-07-08",
      currency: "IDR",
      rate: "0.0391",
      unitMultiplier: 2,
    });
    expect(find("2025-10-14", "USD")).toEqual({
      effectiveDate: "2025-10-14",
      currency: "USD",
      rate: "646.4500",
      unitMultiplier: 2,
    });
    expect(find("2025-10-14", "ZAR")).toEqual({
      effectiveDate: "2025-10-14",
      currency: "ZAR",
      rate: "37.0200",
      unitMultiplier: 2,
    });
  });

  it.skipIf(!sharedFeedsPresent)("builds the recorded request body", () => {
    expect(JSON.parse(dnbRequest(">=2025M03D03"))).toEqual(JSON.parse(recording("DNB/001.csv").requestBody!));
  });

  it("POSTs the DNVALD query with a closed time range, or an open one for the latest", async () => {
    const http = fakeHttp(() => ({ body: "VALUTA;KURTYP;TID;INDHOLD\r\n" }));
    await dnb.fetch({ kind: "range", from: "2025-03-03", to: "2025-04-01" }, { http, env: {} });
    await dnb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => [r.method, r.url])).toEqual([
      ["POST", URL],
      ["POST", URL],
    ]);
    expect(JSON.parse(http.seen[0]!.body!)).toEqual({
      table: "DNVALD",
      format: "BULK",
      lang: "en",
      valuePresentation: "Code",
      variables: [
        { code: "VALUTA", values: [...DNB_CURRENCIES] },
        { code: "KURTYP", values: ["KBH"] },
        { code: "Tid", values: [">=2025M03D03<=2025M04D01"] },
      ],
    });
    expect(
      (JSON.parse(http.seen[1]!.body!) as { variables: Array<{ values: string[] }> }).variables[2]!.values[0],
    ).toMatch(/^>=\d{4}M\d{2}D\d{2}$/);
    expect(DNB_CURRENCIES).toHaveLength(30);
  });
});
