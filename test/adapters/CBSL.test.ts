import { describe, expect, it } from "vitest";

import cbsl, { currencyBoxes } from "../../adapters/CBSL.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const LOOKUP = "https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates.php";
const RESULTS = "https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates_results.php";
const parse = (body: Buffer | string) => cbsl.parse(Buffer.from(body), { url: RESULTS });

describe("CBSL adapter", () => {
  it("reads each table's `1 XXX -> LKR` column (gold per troy ounce as published), keeping trailing zeros", async () => {
    expect(await recordsOf(parse(fixture("CBSL/exrates_results.html")))).toEqual([
      { effectiveDate: "2025-05-16", currency: "AUD", rate: "191.2256" },
      { effectiveDate: "2025-05-15", currency: "AUD", rate: "192.2660" },
      { effectiveDate: "2025-05-16", currency: "XAU", rate: "962211.4861" },
    ]);
  });

  it("treats the lookup page as navigation, never parsed, and lists its checkboxes", () => {
    expect(cbsl.navigation?.test(LOOKUP)).toBe(true);
    expect(cbsl.navigation?.test(RESULTS)).toBe(false);
    expect(currencyBoxes(fixture("CBSL/exrates.html").toString())).toEqual([
      "AUD~Australian Dollar",
      "XAU~Gold (per Troy oz.)",
      "ZMW~Zambia Kwacha (New)",
    ]);
  });

  itRefusesWhole("CBSL", parse, [
    ["a truncated page", fixture("CBSL/exrates_results.html").toString().slice(0, 900)],
    ["another bank's body", '{"rates":[]}'],
    [
      "a table of another layout",
      fixture("CBSL/exrates_results.html").toString().replace("1  AUD  -&gt; LKR", "AUD buying"),
    ],
  ]);

  it.each([
    ["a figure that is not a number", ["192.2660", "192,2660.0"], { kind: "bad-rate", rate: "192,2660.0" }],
    ["a date that does not exist", ["2025-05-15", "2025-02-30"], { kind: "bad-date", effectiveDate: "2025-02-30" }],
  ] as const)("holds a row with %s and takes every other row of every table", async (_what, [from, to], held) => {
    await expectOneHeld(parse(fixture("CBSL/exrates_results.html").toString().replace(from, to)), {
      records: [
        { effectiveDate: "2025-05-16", currency: "AUD", rate: "191.2256" },
        { effectiveDate: "2025-05-16", currency: "XAU", rate: "962211.4861" },
      ],
      held: { ...held, currency: "AUD", source: "table 1 (AUD) row 2" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded results exactly (values read off the file by hand)", async () => {
    const r = recording("CBSL/002.html");
    const records = await recordsOf(cbsl.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency)?.rate;
    expect(find("2025-05-16", "AUD")).toBe("191.2256");
    expect(find("2025-05-15", "AUD")).toBe("192.2666");
    expect(find("2025-05-16", "XAU")).toBe("962211.4861");
    expect(find("2025-05-15", "IRR")).toBe("0.0071");
    expect(find("2025-05-16", "BDT")).toBe("2.4569");
    expect(new Set(records.map((x) => x.currency)).size).toBe(55);
    expect(cbsl.navigation?.test(recording("CBSL/001.html").url)).toBe(true);
  });

  it("posts every checkbox and the range to the results page, the last week for the latest", async () => {
    const http = fakeHttp((req) => (req.url === LOOKUP ? { body: fixture("CBSL/exrates.html") } : { body: "" }));
    const docs = await cbsl.fetch({ kind: "range", from: "2025-05-15", to: "2025-05-16" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${LOOKUP}`,
      `POST ${RESULTS} lookupPage=lookup_daily_exchange_rates.php&rangeType=dates&txtStart=2025-05-15&txtEnd=2025-05-16` +
        "&chk_cur%5B%5D=AUD%7EAustralian+Dollar&chk_cur%5B%5D=XAU%7EGold+%28per+Troy+oz.%29&chk_cur%5B%5D=ZMW%7EZambia+Kwacha+%28New%29&submit_button=Submit",
    ]);
    await cbsl.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[3]!.body).toMatch(
      /^lookupPage=lookup_daily_exchange_rates\.php&rangeType=dates&txtStart=\d{4}-\d{2}-\d{2}&txtEnd=\d{4}-\d{2}-\d{2}&chk_cur/,
    );
  });
});
