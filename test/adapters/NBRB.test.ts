import { describe, expect, it } from "vitest";

import nbrb from "../../adapters/NBRB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://api.nbrb.by/exrates";
const parse = (body: Buffer | string, url = `${API}/rates?periodicity=0`) => nbrb.parse(Buffer.from(body), { url });

describe("NBRB adapter", () => {
  it("reads the day's list with its scales as unitMultiplier, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("NBRB/rates.json")))).toEqual([
      { effectiveDate: "2026-03-17", currency: "AUD", rate: "2.0700" },
      { effectiveDate: "2026-03-17", currency: "AMD", rate: "7.8014", unitMultiplier: 3 },
      { effectiveDate: "2026-03-17", currency: "VND", rate: "11.2071", unitMultiplier: 5 },
      { effectiveDate: "2026-03-17", currency: "THB", rate: "9.0120", unitMultiplier: 2 },
    ]);
  });

  it("reads a dynamics answer with code and scale from the id table, dropping the weekend rows", async () => {
    expect(
      await recordsOf(
        parse(fixture("NBRB/dynamics-459.json"), `${API}/rates/dynamics/459?startDate=2026-03-06&endDate=2026-03-09`),
      ),
    ).toEqual([
      { effectiveDate: "2026-03-06", currency: "KZT", rate: "6.0443", unitMultiplier: 3 },
      { effectiveDate: "2026-03-09", currency: "KZT", rate: "6.0480", unitMultiplier: 3 },
    ]);
  });

  itRefusesWhole("NBRB", parse, [
    ["a 502 page", "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>"],
    ["truncated JSON", '[{"Cur_ID":440,"Date":"2026-03-17T00:00:00","Cur_OfficialRate":2.07'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["an array of something else", "[1, 2, 3]"],
  ]);

  const usd =
    '{"Cur_ID":431,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"USD","Cur_Scale":1,"Cur_OfficialRate":2.9463}';
  const amd =
    '{"Cur_ID":510,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"AMD","Cur_Scale":1000,"Cur_OfficialRate":7.8014}';
  const taken = [
    { effectiveDate: "2026-03-17", currency: "USD", rate: "2.9463" },
    { effectiveDate: "2026-03-17", currency: "AMD", rate: "7.8014", unitMultiplier: 3 },
  ];
  it.each([
    [
      "a list row whose scale disagrees with the id table",
      '{"Cur_ID":456,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"RUB","Cur_Scale":1,"Cur_OfficialRate":0.0367}',
      { kind: "unknown-unit", source: "entry 3 (Cur_ID 456)", currency: "RUB", rate: "0.0367" },
    ],
    [
      "a rate that is not a number",
      '{"Cur_ID":451,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"EUR","Cur_Scale":1,"Cur_OfficialRate":"3,4071"}',
      { kind: "bad-rate", source: "entry 3 (Cur_ID 451)", currency: "EUR", rate: "3,4071" },
    ],
    [
      "a date that does not exist",
      '{"Cur_ID":451,"Date":"2026-02-30T00:00:00","Cur_Abbreviation":"EUR","Cur_Scale":1,"Cur_OfficialRate":3.4071}',
      { kind: "bad-date", source: "entry 3 (Cur_ID 451)", effectiveDate: "2026-02-30T00:00:00" },
    ],
    [
      "a date in another format",
      '{"Cur_ID":451,"Date":"17.03.2026","Cur_Abbreviation":"EUR","Cur_Scale":1,"Cur_OfficialRate":3.4071}',
      { kind: "bad-date", source: "entry 3 (Cur_ID 451)", effectiveDate: "17.03.2026" },
    ],
    [
      "a scale that is not a whole number",
      '{"Cur_ID":999,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"THB","Cur_Scale":"sto","Cur_OfficialRate":9.0120}',
      { kind: "unknown-unit", source: "entry 3 (Cur_ID 999)", currency: "THB" },
    ],
  ] as const)("holds %s in the day's list and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${usd},${amd},${bad}]`), { records: taken, held });
  });

  it("holds a dynamics row of an id the table does not know, taking the rows of known ids", async () => {
    const body =
      '[{"Cur_ID":459,"Date":"2026-03-06T00:00:00","Cur_OfficialRate":6.0443},{"Cur_ID":1,"Date":"2026-03-06T00:00:00","Cur_OfficialRate":2.07}]';
    await expectOneHeld(parse(body, `${API}/rates/dynamics/459?startDate=2026-03-06&endDate=2026-03-06`), {
      records: [{ effectiveDate: "2026-03-06", currency: "KZT", rate: "6.0443", unitMultiplier: 3 }],
      held: { kind: "unknown-currency", source: "entry 2 (Cur_ID 1)", effectiveDate: "2026-03-06T00:00:00" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const list = recording("NBRB/001.json");
    const day = await recordsOf(nbrb.parse(list.body, { url: list.url }));
    expect(day).toHaveLength(30);
    expect(day.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-17",
      currency: "USD",
      rate: "2.9463",
    });
    expect(day.find((x) => x.currency === "IRR")).toEqual({
      effectiveDate: "2026-03-17",
      currency: "IRR",
      rate: "0.2229",
      unitMultiplier: 5,
    });
    expect(day.find((x) => x.currency === "TRY")).toEqual({
      effectiveDate: "2026-03-17",
      currency: "TRY",
      rate: "0.6667",
      unitMultiplier: 1,
    });
    const aud = recording("NBRB/003.json");
    const history = await recordsOf(nbrb.parse(aud.body, { url: aud.url }));
    expect(history).toHaveLength(12); // 17 days, 1 to 17 March, less the Sundays 1, 8, 15 and the Saturdays 7, 14
    expect(history[0]).toEqual({ effectiveDate: "2026-03-02", currency: "AUD", rate: "2.0297" });
    expect(history.at(-1)).toEqual({ effectiveDate: "2026-03-17", currency: "AUD", rate: "2.0700" });
    const czk = recording("NBRB/030.json");
    expect((await recordsOf(nbrb.parse(czk.body, { url: czk.url })))[0]).toEqual({
      effectiveDate: "2026-03-02",
      currency: "CZK",
      rate: "13.8806",
      unitMultiplier: 2,
    });
  });

  it("asks the day's list for the latest, and the dynamics of each known id for a range", async () => {
    const list =
      '[{"Cur_ID":431,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"USD","Cur_Scale":1,"Cur_OfficialRate":2.9463},{"Cur_ID":999,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"THB","Cur_Scale":100,"Cur_OfficialRate":9.0120},{"Cur_ID":456,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"RUB","Cur_Scale":100,"Cur_OfficialRate":3.6709}]';
    const latest = fakeHttp(() => ({ body: list }));
    await nbrb.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.map((r) => r.url)).toEqual([`${API}/rates?periodicity=0`]);
    const http = fakeHttp(() => ({ body: list }));
    await nbrb.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-17" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${API}/rates?periodicity=0`,
      `${API}/rates/dynamics/431?startDate=2026-03-01&endDate=2026-03-17`,
      `${API}/rates/dynamics/456?startDate=2026-03-01&endDate=2026-03-17`,
    ]);
  });
});
