import { afterEach, describe, expect, it, vi } from "vitest";

import rbm from "../../adapters/RBM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.rbm.mw/Statistics/ExchangeRatesFilter/";
const parse = (body: Buffer | string) => rbm.parse(Buffer.from(body), { url: URL });

describe("RBM adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("takes the Middle column, reads the split date cell, skips CMD and holds IEP's stale figure", async () => {
    await expectOneHeld(parse(fixture("RBM/range.html")), {
      records: [
        { effectiveDate: "2024-01-02", currency: "AED", rate: "458.3832" },
        { effectiveDate: "2024-01-03", currency: "IDR", rate: "0.1089" },
        { effectiveDate: "2024-01-02", currency: "USD", rate: "1683.3663" },
        { effectiveDate: "2024-01-03", currency: "XDR", rate: "2258.5213" },
        { effectiveDate: "2024-01-03", currency: "KWD", rate: "5482.0279" },
      ],
      held: { kind: "bad-row", source: "row 4 (IEP)", currency: "IEP", rate: "1201.7178" },
    });
  });

  itRefusesWhole("RBM", parse, [
    ["a server error page", "<!DOCTYPE html><html><body>Server Error in '/' Application.</body></html>"],
    ["a truncated answer", fixture("RBM/range.html").toString().slice(0, 1200)],
    [
      "another bank's body",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>CFA</th></tr></table>",
    ],
    ["a missing Middle label", fixture("RBM/no-middle.html").toString()],
  ]);

  const range = fixture("RBM/range.html").toString();
  it.each([
    [
      "a date that does not exist",
      range.replace("Jan 03", "Jan 33"),
      "IDR",
      { kind: "bad-date", effectiveDate: "Jan 33 2024" },
    ],
    [
      "a Middle that is not a number",
      range.replace("<td>0.1089</td>", "<td>0,1089</td>"),
      "IDR",
      { kind: "bad-rate", rate: "0,1089" },
    ],
    [
      "a row with a cell missing",
      range.replace("<td>0.1078</td>", ""),
      "IDR",
      { kind: "bad-row", source: "row 3 (IDR)" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, body, currency, held) => {
    const answer = await answerOf(parse(body));
    expect(answer.records.map((r) => r.currency)).toEqual(["AED", "USD", "XDR", "KWD"]);
    expect(answer.records[1]).toEqual({ effectiveDate: "2024-01-02", currency: "USD", rate: "1683.3663" });
    // The bad row, and IEP's stale figure.
    expect(answer.held.map((h) => h.currency)).toEqual([currency, "IEP"]);
    expect(answer.held[0]).toMatchObject(held);
  });

  it("posts the range as MM/DD/YYYY form fields", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2024-01-10T15:00:00Z"));
    const http = fakeHttp(() => ({ body: "" }));
    await rbm.fetch({ kind: "latest" }, { http, env: {} });
    await rbm.fetch({ kind: "range", from: "2024-01-02", to: "2024-01-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      "POST https://www.rbm.mw/Statistics/ExchangeRatesFilter/ RateTypes=&StartDate=01%2F03%2F2024&EndDate=01%2F10%2F2024",
      "POST https://www.rbm.mw/Statistics/ExchangeRatesFilter/ RateTypes=&StartDate=01%2F02%2F2024&EndDate=01%2F31%2F2024",
    ]);
    await expect(rbm.fetch({ kind: "range", from: "2024-01-01", to: "2024-01-31" }, { http, env: {} })).rejects.toThrow(
      /^RBM: /,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded range exactly (values read off the file by hand)", async () => {
    const r = recording("RBM/001.html");
    const { records, held } = await answerOf(rbm.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(72);
    expect(records[0]).toEqual({ effectiveDate: "2024-01-02", currency: "AED", rate: "458.3832" });
    expect(find("2024-01-02", "USD")).toEqual({ effectiveDate: "2024-01-02", currency: "USD", rate: "1683.3663" });
    expect(find("2024-01-03", "ARS")).toEqual({ effectiveDate: "2024-01-03", currency: "ARS", rate: "2.0767" });
    expect(find("2024-01-02", "ZMW")).toEqual({ effectiveDate: "2024-01-02", currency: "ZMW", rate: "65.5848" });
    expect(records.some((x) => x.currency === "CMD" || x.currency === "IEP")).toBe(false);
    // IEP at 1201.7178 MWK while the euro's fixed rate gives 1899.2782 / 0.787564 = 2411.6: held.
    expect(held.map((h) => [h.kind, h.currency, h.rate])).toEqual([
      ["bad-row", "IEP", "1201.7178"],
      ["bad-row", "IEP", "1210.1843"],
    ]);
  });
});
