import { describe, expect, it } from "vitest";

import nbrb from "../../adapters/NBRB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const API = "https://api.nbrb.by/exrates";
const parse = (body: Buffer | string, url = `${API}/rates?periodicity=0`) => nbrb.parse(Buffer.from(body), { url });

describe("NBRB adapter", () => {
  it("reads the day's list with its scales as unitMultiplier, trailing zeros kept", async () => {
    expect(await parse(fixture("NBRB/rates.json"))).toEqual([
      { effectiveDate: "2026-03-17", currency: "AUD", rate: "2.0700" },
      { effectiveDate: "2026-03-17", currency: "AMD", rate: "7.8014", unitMultiplier: 3 },
      { effectiveDate: "2026-03-17", currency: "VND", rate: "11.2071", unitMultiplier: 5 },
      { effectiveDate: "2026-03-17", currency: "THB", rate: "9.0120", unitMultiplier: 2 },
    ]);
  });

  it("reads a dynamics answer with code and scale from the id table, dropping the weekend rows", async () => {
    expect(
      await parse(
        fixture("NBRB/dynamics-459.json"),
        `${API}/rates/dynamics/459?startDate=2026-03-06&endDate=2026-03-09`,
      ),
    ).toEqual([
      { effectiveDate: "2026-03-06", currency: "KZT", rate: "6.0443", unitMultiplier: 3 },
      { effectiveDate: "2026-03-09", currency: "KZT", rate: "6.0480", unitMultiplier: 3 },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>"],
    ["truncated JSON", '[{"Cur_ID":440,"Date":"2026-03-17T00:00:00","Cur_OfficialRate":2.07'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["a dynamics row of an unknown id", '[{"Cur_ID":1,"Date":"2026-03-17T00:00:00","Cur_OfficialRate":2.07}]'],
    [
      "a list whose scale disagrees with the id table",
      '[{"Cur_ID":456,"Date":"2026-03-17T00:00:00","Cur_Abbreviation":"RUB","Cur_Scale":1,"Cur_OfficialRate":0.0367}]',
    ],
    ["a bad date", '[{"Cur_ID":440,"Date":"17.03.2026","Cur_OfficialRate":2.07}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^NBRB: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const list = recording("NBRB/001.json");
    const day = await nbrb.parse(list.body, { url: list.url });
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
    const history = await nbrb.parse(aud.body, { url: aud.url });
    expect(history).toHaveLength(12); // 17 days, 1 to 17 March, less the Sundays 1, 8, 15 and the Saturdays 7, 14
    expect(history[0]).toEqual({ effectiveDate: "2026-03-02", currency: "AUD", rate: "2.0297" });
    expect(history.at(-1)).toEqual({ effectiveDate: "2026-03-17", currency: "AUD", rate: "2.0700" });
    const czk = recording("NBRB/030.json");
    expect((await nbrb.parse(czk.body, { url: czk.url }))[0]).toEqual({
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
