import { afterEach, describe, expect, it, vi } from "vitest";

import fred, { FRED_SERIES } from "../../adapters/FRED.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const urlOf = (series: string) =>
  `https://api.stlouisfed.org/fred/series/observations?api_key=<FRED_API_KEY>&file_type=json&observation_start=2026-03-01&series_id=${series}`;
const parse = (body: Buffer | string, series = "DEXJPUS") => fred.parse(Buffer.from(body), { url: urlOf(series) });

describe("FRED adapter", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads a foreign-per-dollar series as published, skipping '.' and holding a zero", async () => {
    await expectOneHeld(parse(fixture("FRED/DEXJPUS.json")), {
      records: [
        { effectiveDate: "2026-03-02", currency: "JPY", rate: "157.48" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "157.690" },
      ],
      held: { kind: "bad-rate", source: "observations[3]", effectiveDate: "2026-03-05", currency: "JPY", rate: "0" },
    });
  });

  it("inverts a dollars-per-foreign series to 10 significant digits and flags it", async () => {
    // 1 / 1.169 = 0.85543199315654..., 1 / 1.25 = 0.8
    expect(await recordsOf(parse(fixture("FRED/DEXUSEU.json"), "DEXUSEU"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "EUR", rate: "0.8554319932", derivation: "inverted" },
      { effectiveDate: "2026-03-03", currency: "EUR", rate: "0.8", derivation: "inverted" },
    ]);
  });

  it("maps the 22 H.10 series, four of them in the dollar-per-foreign direction", () => {
    expect(Object.keys(FRED_SERIES)).toHaveLength(22);
    expect(
      Object.entries(FRED_SERIES)
        .filter(([, [, d]]) => d === "usd")
        .map(([s, [c]]) => `${s}=${c}`),
    ).toEqual(["DEXUSAL=AUD", "DEXUSEU=EUR", "DEXUSNZ=NZD", "DEXUSUK=GBP"]);
    expect(FRED_SERIES.DEXSZUS).toEqual(["CHF", "foreign"]);
    expect(FRED_SERIES.DEXSDUS).toEqual(["SEK", "foreign"]);
    expect(FRED_SERIES.DEXSFUS).toEqual(["ZAR", "foreign"]);
    expect(FRED_SERIES.DEXSLUS).toEqual(["LKR", "foreign"]);
  });

  itRefusesWhole("FRED", parse, [
    ["truncated JSON", '{"observations":[{"date":"2026-03-02","value":"157.4'],
    [
      "an API error",
      '{"error_code":400,"error_message":"Bad Request.  The value for variable api_key is not registered."}',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["percent changes instead of levels", '{"units":"pch","observations":[{"date":"2026-03-02","value":"0.12"}]}'],
  ]);

  const good = '{"date":"2026-03-02","value":"157.48"},{"date":"2026-03-03","value":"157.690"}';
  it.each([
    ["a value that is not a number", '{"date":"2026-03-04","value":"N/A"}', { kind: "bad-rate", rate: "N/A" }],
    [
      "a date that does not exist",
      '{"date":"2026-02-30","value":"157.1"}',
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
  ] as const)("holds %s and takes the other observations", async (_what, bad, held) => {
    await expectOneHeld(parse(`{"units":"lin","observations":[${good},${bad}]}`), {
      records: [
        { effectiveDate: "2026-03-02", currency: "JPY", rate: "157.48" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "157.690" },
      ],
      held: { ...held, source: "observations[2]", currency: "JPY" },
    });
  });

  it("rejects a body whose URL names no known series", async () => {
    const body = fixture("FRED/DEXJPUS.json");
    await expect(async () =>
      fred.parse(body, { url: "https://api.stlouisfed.org/fred/series/observations" }),
    ).rejects.toThrow(/^FRED: .*series_id/);
    await expect(async () => fred.parse(body, { url: urlOf("DEXVZUS") })).rejects.toThrow(
      /^FRED: unknown series "DEXVZUS"/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const read = async (file: string) => {
      const r = recording(file);
      return recordsOf(fred.parse(r.body, { url: r.url }));
    };
    const brl = await read("FRED/001.json");
    expect(brl[0]).toEqual({ effectiveDate: "2026-03-02", currency: "BRL", rate: "5.1901" });
    expect(brl.find((x) => x.effectiveDate === "2026-03-11")).toEqual({
      effectiveDate: "2026-03-11",
      currency: "BRL",
      rate: "5.157",
    });
    expect(brl).toHaveLength(10);
    expect((await read("FRED/007.json"))[1]).toEqual({ effectiveDate: "2026-03-03", currency: "JPY", rate: "157.69" });
    // DEXUSUK 2026-03-02 is 1.3393 USD per GBP: 1 / 1.3393 = 0.74665870...
    expect((await read("FRED/022.json"))[0]).toEqual({
      effectiveDate: "2026-03-02",
      currency: "GBP",
      rate: "0.7466587023",
      derivation: "inverted",
    });
    // DEXUSEU 2026-03-03 is 1.1604: 1 / 1.1604 = 0.86177180...
    expect((await read("FRED/020.json"))[1]).toEqual({
      effectiveDate: "2026-03-03",
      currency: "EUR",
      rate: "0.8617718028",
      derivation: "inverted",
    });
  });

  it("needs its API key and says which variable to set", async () => {
    await expect(fred.fetch({ kind: "latest" }, { http: fakeHttp(), env: {} })).rejects.toThrow(
      /^FRED: needs EXRATES_FRED_API_KEY/,
    );
  });

  it("asks every series with the key, from a start date (and to an end date for a range)", async () => {
    vi.useFakeTimers();
    const http = fakeHttp(() => ({ body: '{"observations":[]}' }));
    const done = fred.fetch(
      { kind: "range", from: "2025-01-01", to: "2025-12-31" },
      { http, env: { EXRATES_FRED_API_KEY: "k3y" } },
    );
    await vi.runAllTimersAsync();
    const docs = await done;
    expect(docs).toHaveLength(22);
    expect(http.seen[0]!.url).toBe(
      "https://api.stlouisfed.org/fred/series/observations?series_id=DEXBZUS&api_key=k3y&file_type=json&observation_start=2025-01-01&observation_end=2025-12-31",
    );
    expect(http.seen[21]!.url).toBe(
      "https://api.stlouisfed.org/fred/series/observations?series_id=DEXUSUK&api_key=k3y&file_type=json&observation_start=2025-01-01&observation_end=2025-12-31",
    );
    const latest = fred.fetch({ kind: "latest" }, { http, env: { EXRATES_FRED_API_KEY: "k3y" } });
    await vi.runAllTimersAsync();
    await latest;
    expect(http.seen[22]!.url).toMatch(
      /^https:\/\/api\.stlouisfed\.org\/fred\/series\/observations\?series_id=DEXBZUS&api_key=k3y&file_type=json&observation_start=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
