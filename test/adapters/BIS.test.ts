import { describe, expect, it } from "vitest";

import bis from "../../adapters/BIS.js";
import { HttpError } from "../../src/errors.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) => bis.parse(Buffer.from(body), { url: "https://stats.bis.org/api/v2/data" });
const FIXTURE = "BIS/ws_xru_2026-07_2026-08.csv";
const july = { effectiveDate: "2026-07-31", validTo: "2026-08-30" };
const HEADER =
  "DATAFLOW,FREQ,REF_AREA,CURRENCY,COLLECTION,TIME_PERIOD,OBS_VALUE,UNIT_MULT,DECIMALS,AVAILABILITY,TITLE,OBS_STATUS,OBS_PRE_BREAK,OBS_CONF";

describe("BIS adapter", () => {
  it("reads each month's observation as effective on its last day, valid until the day before the next month's last day", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    expect(answer.records.filter((r) => r.currency === "JPY")).toEqual([
      { ...july, currency: "JPY", rate: "147.250000" },
      { effectiveDate: "2026-08-31", validTo: "2026-09-29", currency: "JPY", rate: "146.9" },
    ]);
  });

  it("applies UNIT_MULT exactly (143.5625 x 10^3), flagging the figure as derived", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    expect(answer.records.find((r) => r.currency === "VES")).toEqual({
      ...july,
      currency: "VES",
      rate: "143562.5",
      derivation: "unit-normalised",
    });
  });

  it("folds a currency's area lines to one figure: equal ones folded, a different one held beside its home area's, all held without a home", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    const july31 = answer.records.filter((r) => r.effectiveDate === "2026-07-31");
    expect(july31.filter((r) => ["EUR", "XOF", "AUD", "XCD"].includes(r.currency))).toEqual([
      { ...july, currency: "EUR", rate: "0.857412" },
      { ...july, currency: "XOF", rate: "562.422291" },
      { ...july, currency: "AUD", rate: "1.521004" },
    ]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.rate, h.source])).toEqual([
      ["bad-rate", "TWD", "29.7x", "line 16 (TW)"],
      ["unknown-currency", "XYZ", "3.5", "line 17 (XX)"],
      ["conflict", "EUR", "0.857398", "line 6 (BG)"],
      ["conflict", "AUD", "1.522871", "line 11 (KI)"],
      ["conflict", "XCD", "2.7", "line 12 (DM)"],
      ["conflict", "XCD", "2.71", "line 13 (GD)"],
    ]);
    expect(answer.held[2]!.reason).toBe("BG's EUR figure 0.857398 differs from XM's 0.857412, the currency's own line");
  });

  it("leaves out a line without an observation and the US dollar's own line (the base): the gate takes every record", async () => {
    const answer = await answerOf(parse(fixture(FIXTURE)));
    expect(answer.records.map((r) => r.currency).sort()).toEqual(["AUD", "EUR", "JPY", "JPY", "VES", "XOF"]);
    const gated = gateRecords("USD", answer.records, answer.held);
    expect(gated.records).toEqual(answer.records);
    expect(gated.held).toEqual(answer.held);
  });

  itRefusesWhole("BIS", parse, [
    ["a CSV of another layout", "Date,USD,EUR\n2026-08-03,1.1,1.2\n"],
    [
      "the average series instead of end of period",
      `${HEADER}\nBIS:WS_XRU(1.0),M,JP,JPY,A,2026-07,147.1,0,6,A, x,A,,F\n`,
    ],
    ["another dataflow", `${HEADER}\nBIS:WS_EER(1.0),M,JP,JPY,E,2026-07,81.2,0,6,A, x,A,,F\n`],
    ["a header alone", `${HEADER}\n`],
  ]);

  it("fetches a range in one call for its months, the SDMX-CSV asked for; a 404 (no observation yet) is no document", async () => {
    const http = fakeHttp(() => ({ body: fixture(FIXTURE) }));
    const docs = await bis.fetch({ kind: "range", from: "2026-07-15", to: "2026-08-20" }, { http, env: {} });
    expect(docs).toHaveLength(1);
    expect(http.seen[0]!.url).toBe(
      "https://stats.bis.org/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E?c%5BTIME_PERIOD%5D=ge:2026-07%2Ble:2026-08",
    );
    const none = fakeHttp(() => {
      throw new HttpError("HTTP 404", 404);
    });
    expect(await bis.fetch({ kind: "latest" }, { http: none, env: {} })).toEqual([]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded months: 2025-01's euro from the euro area's line, Bulgaria's restated one held",
    async () => {
      const r = recording("BIS/001.csv");
      const answer = await answerOf(bis.parse(r.body, { url: r.url }));
      expect(answer.records.find((x) => x.currency === "EUR" && x.effectiveDate === "2025-01-31")).toEqual({
        effectiveDate: "2025-01-31",
        validTo: "2025-02-27",
        currency: "EUR",
        rate: "0.962186",
      });
      expect(answer.held.map((h) => `${h.currency} ${h.source}`).sort()).toEqual([
        "AUD line 240 (KI)",
        "AUD line 241 (KI)",
        "EUR line 32 (BG)",
        "EUR line 33 (BG)",
      ]);
    },
  );
});
