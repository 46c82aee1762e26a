import { describe, expect, it } from "vitest";

import nbpb from "../../adapters/NBPB.js";
import { HttpError } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://api.nbp.pl/api/exchangerates/tables/B/2026-03-01/2026-03-24/?format=json";
const parse = (body: Buffer | string) => nbpb.parse(Buffer.from(body), { url: URL });

describe("NBPB adapter (NBP's weekly Table B)", () => {
  it("reads each table's mids with every digit, valid until the next table's eve (the newest for a week)", async () => {
    expect(await recordsOf(parse(fixture("NBPB/tables.json")))).toEqual([
      { effectiveDate: "2026-03-04", validTo: "2026-03-10", currency: "AFN", rate: "0.0553" },
      { effectiveDate: "2026-03-04", validTo: "2026-03-10", currency: "IRR", rate: "0.0000030" },
      { effectiveDate: "2026-03-04", validTo: "2026-03-10", currency: "XOF", rate: "0.006450" },
      { effectiveDate: "2026-03-11", validTo: "2026-03-17", currency: "AFN", rate: "0.0561" },
      { effectiveDate: "2026-03-11", validTo: "2026-03-17", currency: "IRR", rate: "0.0000029" },
      { effectiveDate: "2026-03-11", validTo: "2026-03-17", currency: "XOF", rate: "0.006470" },
    ]);
  });

  it("ends a table on the eve of the next one even when a holiday moved it", async () => {
    const body = (date: string, no: string) =>
      `{"table":"B","no":"${no}","effectiveDate":"${date}","rates":[{"code":"AFN","mid":0.0553}]}`;
    // 2026-04-08 moved to Thursday the 9th: the table of 1 April is valid to the 8th.
    const records = await recordsOf(parse(`[${body("2026-04-01", "064/B")},${body("2026-04-09", "065/B")}]`));
    expect(records.map((r) => [r.effectiveDate, r.validTo])).toEqual([
      ["2026-04-01", "2026-04-08"],
      ["2026-04-09", "2026-04-15"],
    ]);
  });

  it("holds a rate that cannot be read and takes the others", async () => {
    await expectOneHeld(
      parse(
        '[{"table":"B","no":"009/B/NBP/2026","effectiveDate":"2026-03-04","rates":[{"code":"AFN","mid":0.0553},{"code":"IRR","mid":"3,0"}]}]',
      ),
      {
        records: [{ effectiveDate: "2026-03-04", validTo: "2026-03-10", currency: "AFN", rate: "0.0553" }],
        held: { kind: "bad-rate", source: "table 009/B/NBP/2026 rate 2", currency: "IRR" },
      },
    );
  });

  itRefusesWhole("NBPB", parse, [
    [
      "a Table A answer (the daily rates)",
      '[{"table":"A","no":"041/A/NBP/2026","effectiveDate":"2026-03-02","rates":[{"code":"USD","mid":3.6056}]}]',
    ],
    [
      "a Table C answer (buying and selling)",
      '[{"table":"C","no":"041/C/NBP/2026","effectiveDate":"2026-03-02","rates":[{"code":"USD","bid":3.57,"ask":3.64}]}]',
    ],
    ["gold prices", '[{"data":"2026-03-02","cena":595.71}]'],
    [
      "truncated JSON",
      '[{"table":"B","no":"009/B/NBP/2026","effectiveDate":"2026-03-04","rates":[{"code":"AFN","mid":0.05',
    ],
  ]);

  it("says an empty list is no table in the window", async () => {
    expect(await Promise.resolve(parse("[]"))).toMatchObject({ records: [], held: [] });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NBPB/001.json");
    const records = await recordsOf(nbpb.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(348);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-18", "IRR")).toEqual({
      effectiveDate: "2026-03-18",
      validTo: "2026-03-24",
      currency: "IRR",
      rate: "0.00000281",
    });
    expect(find("2026-03-04", "VND")).toEqual({
      effectiveDate: "2026-03-04",
      validTo: "2026-03-10",
      currency: "VND",
      rate: "0.00014035",
    });
  });

  it("asks table B for the window, a 404 being no table", async () => {
    const http = fakeHttp(() => {
      throw new HttpError("HTTP 404", 404);
    });
    expect(await nbpb.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-24" }, { http, env: {} })).toEqual([]);
    expect(http.seen.map((s) => s.url)).toEqual([URL]);
  });
});
