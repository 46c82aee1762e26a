import { describe, expect, it } from "vitest";

import mma from "../../adapters/MMA.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  mma.parse(Buffer.from(body), { url: "https://www.mma.gov.mv/JSON/referencerates.json?v=20210210" });

describe("MMA adapter", () => {
  it("reads the USD rate, holds two-day dates, skips empty rates; a date given two figures is held by the gate", async () => {
    const answer = await answerOf(parse(fixture("MMA/referencerates.json")));
    expect(answer.records).toEqual([
      { effectiveDate: "2021-02-10", currency: "USD", rate: "15.42" },
      { effectiveDate: "2021-02-07", currency: "USD", rate: "15.40" },
      { effectiveDate: "2021-02-07", currency: "USD", rate: "15.39" },
      { effectiveDate: "2021-01-04", currency: "USD", rate: "15.420" },
    ]);
    expect(answer.held).toMatchObject([
      { kind: "bad-date", effectiveDate: "08/09 February 2021", rate: "15.41", source: "entry 2" },
    ]);
    // 07 February 2021 is given 15.40 and 15.39: neither is guessed.
    const gated = gateRecords("MVR", answer.records, answer.held);
    expect(gated.records).toEqual([
      { effectiveDate: "2021-02-10", currency: "USD", rate: "15.42" },
      { effectiveDate: "2021-01-04", currency: "USD", rate: "15.420" },
    ]);
    expect(gated.held.map((h) => [h.kind, h.effectiveDate, h.rate])).toEqual([
      ["bad-date", "08/09 February 2021", "15.41"],
      ["conflict", "2021-02-07", "15.40"],
      ["conflict", "2021-02-07", "15.39"],
    ]);
  });

  itRefusesWhole("MMA", parse, [
    ["truncated JSON", '[{"Date": "22 January 2020", "Rate": "15.3'],
    ["another bank's body", '{"success":true,"message":"OK","data":[]}'],
    ["an array of something else", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
  ]);

  it.each([
    [
      "an unreadable date",
      '{"Date": "2020-01-22", "Rate": "15.38"}',
      { kind: "bad-date", effectiveDate: "2020-01-22" },
    ],
    ["an unknown month", '{"Date": "22 Janvier 2020", "Rate": "15.38"}', { kind: "bad-date" }],
    ["a 31st in a 30-day month", '{"Date": "31 April 2020", "Rate": "15.38"}', { kind: "bad-date" }],
    [
      "a rate that is not a number",
      '{"Date": "20 January 2020", "Rate": "15,33"}',
      { kind: "bad-rate", rate: "15,33" },
    ],
  ] as const)("holds %s and takes every other entry of the history", async (_what, bad, held) => {
    const body = `[{"Date": "22 January 2020", "Rate": "15.38"}, ${bad}, {"Date": "19 January 2020", "Rate": "-"}, {"Date": "16 January 2020", "Rate": "15.370"}]`;
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2020-01-22", currency: "USD", rate: "15.38" },
        { effectiveDate: "2020-01-16", currency: "USD", rate: "15.370" },
      ],
      held: { ...held, source: "entry 2" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded history exactly (values read off the file by hand)", async () => {
    const r = recording("MMA/001.json");
    const records = await recordsOf(mma.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(2131);
    expect(records[0]).toEqual({ effectiveDate: "2020-01-22", currency: "USD", rate: "15.38" });
    expect(records[13]).toEqual({ effectiveDate: "2020-01-05", currency: "USD", rate: "15.41" });
    expect(records.at(-1)).toEqual({ effectiveDate: "2011-04-21", currency: "USD", rate: "14.75" });
  });

  it("asks the whole file with the range end (or today) as cache-buster", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await mma.fetch({ kind: "range", from: "2020-01-01", to: "2020-01-22" }, { http, env: {} });
    await mma.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe("https://www.mma.gov.mv/JSON/referencerates.json?v=20200122");
    expect(http.seen[1]!.url).toMatch(/^https:\/\/www\.mma\.gov\.mv\/JSON\/referencerates\.json\?v=\d{8}$/);
  });
});
