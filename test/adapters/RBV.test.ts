import { describe, expect, it } from "vitest";

import rbv, { rbvDate } from "../../adapters/RBV.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.rbv.gov.vu/index.php/en/exchange-rates?limit1=100000";
const parse = (body: Buffer | string) => rbv.parse(Buffer.from(body), { url: URL });

describe("RBV adapter", () => {
  it("reads every row of the list, currency columns by their labels, both date formats, empty cells skipped", async () => {
    expect(await recordsOf(parse(fixture("RBV/list.html")))).toEqual([
      { effectiveDate: "2026-05-22", currency: "USD", rate: "117.80" },
      { effectiveDate: "2026-05-22", currency: "JPY", rate: "0.7604" },
      { effectiveDate: "2026-05-22", currency: "NZD", rate: "70.83" },
      { effectiveDate: "2026-05-22", currency: "GBP", rate: "161.22" },
      { effectiveDate: "2026-05-22", currency: "AUD", rate: "81.91" },
      { effectiveDate: "2026-05-22", currency: "EUR", rate: "139.59" },
      { effectiveDate: "2025-09-03", currency: "USD", rate: "118.05" },
      { effectiveDate: "2025-09-03", currency: "JPY", rate: "0.8001" },
      { effectiveDate: "2025-09-03", currency: "GBP", rate: "160.10" },
      { effectiveDate: "2025-09-03", currency: "AUD", rate: "78.00" },
      { effectiveDate: "2025-09-03", currency: "EUR", rate: "138.40" },
      { effectiveDate: "2025-08-27", currency: "USD", rate: "118.50" },
      { effectiveDate: "2025-08-27", currency: "JPY", rate: "0.8046" },
      { effectiveDate: "2025-08-27", currency: "NZD", rate: "70.05" },
      { effectiveDate: "2025-08-27", currency: "GBP", rate: "159.75" },
      { effectiveDate: "2025-08-27", currency: "AUD", rate: "77.36" },
      { effectiveDate: "2025-08-27", currency: "EUR", rate: "138.20" },
    ]);
  });

  it("reads both date spellings, month names from ICU, and nothing else", () => {
    expect(rbvDate("02 February 2026")).toBe("2026-02-02");
    expect(rbvDate("3 September 2025")).toBe("2025-09-03");
    expect(rbvDate("27-Aug-25")).toBe("2025-08-27");
    expect(rbvDate("2026-02-02")).toBeUndefined();
    expect(rbvDate("31-Feb-26")).toBeUndefined();
  });

  itRefusesWhole("RBV", parse, [
    ["an HTML error page", "<!DOCTYPE html><html><body><h1>500 Internal Server Error</h1></body></html>"],
    ["a truncated page", fixture("RBV/list.html").toString().slice(0, 2500)],
    ["another bank's body", '<div><table id="exchange-rates"><thead><tr><th>Currency</th></tr></thead></table></div>'],
    ["a missing Date label", fixture("RBV/no-date-label.html").toString()],
  ]);

  const list = fixture("RBV/list.html").toString();
  const others = (records: Array<{ effectiveDate: string; currency: string; rate: string }>) => {
    expect(records).toHaveLength(16);
    expect(records[0]).toEqual({ effectiveDate: "2026-05-22", currency: "JPY", rate: "0.7604" });
    expect(records.at(-1)).toEqual({ effectiveDate: "2025-08-27", currency: "EUR", rate: "138.20" });
  };
  it.each([
    [
      "a figure that is not a number",
      list.replace("117.80", "117,80,1"),
      { kind: "bad-rate", source: '<tr id="list_1_com_fabrik_1_row_3"> USD', currency: "USD", rate: "117,80,1" },
    ],
  ] as const)("holds %s and takes the other cells", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: others, held });
  });

  it("holds every figure of a row whose date does not exist", async () => {
    const answer = await answerOf(parse(list.replace("22 May 2026", "31 June 2026")));
    expect(answer.records).toHaveLength(11);
    expect(answer.held.map((h) => [h.kind, h.currency, h.effectiveDate])).toEqual(
      ["USD", "JPY", "NZD", "GBP", "AUD", "EUR"].map((c) => ["bad-date", c, "31 June 2026"]),
    );
  });

  it("asks for the whole list, for the latest and for a range alike", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await rbv.fetch({ kind: "latest" }, { http, env: {} });
    await rbv.fetch({ kind: "range", from: "2025-09-01", to: "2025-09-30" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${URL}`, `GET ${URL}`]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded list exactly (values read off the file by hand)", async () => {
    const r = recording("RBV/001.html");
    const records = await recordsOf(rbv.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(112 * 6);
    expect(records[0]).toEqual({ effectiveDate: "2026-02-02", currency: "USD", rate: "117.80" });
    expect(find("2026-02-02", "JPY")).toEqual({ effectiveDate: "2026-02-02", currency: "JPY", rate: "0.7604" });
    expect(find("2026-01-30", "EUR")).toEqual({ effectiveDate: "2026-01-30", currency: "EUR", rate: "140.93" });
    expect(find("2026-01-28", "GBP")).toEqual({ effectiveDate: "2026-01-28", currency: "GBP", rate: "163.11" });
    expect(records.at(-1)?.effectiveDate).toBe("2025-08-26");
  });
});
