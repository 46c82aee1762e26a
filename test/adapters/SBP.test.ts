import { describe, expect, it } from "vitest";

import sbp, { SBP_NAMES } from "../../adapters/SBP.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const CURRENT = "https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx";
const ARCHIVE = "https://www.sbp.org.pk/assets/document/BFER_Daily_Arch.xlsx";
const parse = (body: Buffer | string) => sbp.parse(Buffer.from(body), { url: CURRENT });

describe("SBP adapter", () => {
  it("reads the wide layout by its Currency/date row, maps misspelt names, takes the six decimals shown", async () => {
    expect(await parse(fixture("SBP/BFER_Daily.xlsx"))).toEqual([
      { effectiveDate: "2026-04-01", currency: "JPY", rate: "1.759259" },
      { effectiveDate: "2026-04-02", currency: "JPY", rate: "1.752620" },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "279.351786" },
      { effectiveDate: "2026-04-02", currency: "USD", rate: "279.323214" },
      { effectiveDate: "2026-04-01", currency: "NOK", rate: "28.617132" },
      { effectiveDate: "2026-04-01", currency: "THB", rate: "8.568000" },
      { effectiveDate: "2026-04-02", currency: "THB", rate: "8.540692" },
    ]);
  });

  it("knows the bank's spellings", () => {
    expect(SBP_NAMES["japnese yen"]).toBe("JPY");
    expect(SBP_NAMES["singaporian dollar"]).toBe("SGD");
    expect(SBP_NAMES["thai bhat"]).toBe("THB");
    expect(SBP_NAMES["uk pound sterling"]).toBe("GBP");
    expect(new Set(Object.values(SBP_NAMES)).size).toBe(23);
  });

  it.each([
    ["an empty body", ""],
    [
      "the home page served for an old URL",
      "<!DOCTYPE html><html><head><title>State Bank of Pakistan</title></head><body></body></html>",
    ],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "RBF"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("SBP/BFER_Daily.xlsx").subarray(0, 3000)
        : kind === "RBF"
          ? fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^SBP: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("SBP/002.xlsx");
    const records = await sbp.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency)?.rate;
    expect(find("2026-04-01", "USD")).toBe("279.351786"); // C31 279.35178571428565, shown 279.351786
    expect(find("2026-04-06", "USD")).toBe("279.300000"); // F31 279.3
    expect(find("2026-04-01", "JPY")).toBe("1.759259"); // C16, "Japnese Yen"
    expect(find("2026-04-01", "MYR")).toBe("69.238276"); // C18 69.23827635714285
    expect(find("2026-04-30", "OMR")).toBe("723.431125"); // X21 723.4311250000001
    expect(records).toHaveLength(23 * 22);
  });

  it("asks the current month for the latest, and the archive too (last) for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await sbp.fetch({ kind: "latest" }, { http, env: {} });
    await sbp.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${CURRENT}`,
      `GET ${CURRENT}`,
      `GET ${ARCHIVE}`,
    ]);
  });
});
