import { describe, expect, it } from "vitest";

import bcch, { BCCH_SERIES } from "../../adapters/BCCH.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?function=GetSeries&timeseries=F073.TCO.PRE.Z.D";
const parse = (body: Buffer | string) => bcch.parse(Buffer.from(body), { url: URL });

describe("BCCH adapter", () => {
  it("reads the OK observations of a series, skipping ND days and thousands separators", async () => {
    expect(await recordsOf(parse(fixture("BCCH/usd.json")))).toEqual([
      { effectiveDate: "2022-12-30", currency: "USD", rate: "855.86" },
      { effectiveDate: "2023-01-02", currency: "USD", rate: "1001.50" },
      { effectiveDate: "2023-01-03", currency: "USD", rate: "858.10" },
    ]);
  });

  itRefusesWhole("BCCH", parse, [
    [
      "truncated JSON",
      '{"Codigo":0,"Series":{"seriesId":"F073.TCO.PRE.Z.D","Obs":[{"indexDateString":"30-12-2022","value":"855',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "a refused login",
      '{"Codigo":-5,"Descripcion":"Invalid username or password","Series":{"seriesId":null,"Obs":null}}',
    ],
    ["an answer without its series", '{"Codigo":0,"Descripcion":"Success","Data":[]}'],
  ]);

  const series = (id: string, bad: string) =>
    `{"Codigo":0,"Descripcion":"Success","Series":{"seriesId":"${id}","Obs":[` +
    `{"indexDateString":"02-03-2026","value":"871.41","statusCode":"OK"},${bad},` +
    `{"indexDateString":"04-03-2026","value":"906.32","statusCode":"OK"}]}}`;
  it.each([
    [
      "an OK value that is not a number",
      '{"indexDateString":"03-03-2026","value":"NaN","statusCode":"OK"}',
      { kind: "bad-rate", rate: "NaN" },
    ],
    [
      "a date that does not exist",
      '{"indexDateString":"30-02-2026","value":"884.21","statusCode":"OK"}',
      { kind: "bad-date", effectiveDate: "30-02-2026" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(series("F073.TCO.PRE.Z.D", bad)), {
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "871.41" },
        { effectiveDate: "2026-03-04", currency: "USD", rate: "906.32" },
      ],
      held: { ...held, source: "F073.TCO.PRE.Z.D Obs[1]" },
    });
  });

  it("holds the observations of a series it did not ask for", async () => {
    const answer = await answerOf(
      parse(series("F073.UFF.PRE.Z.D", '{"indexDateString":"03-03-2026","value":"NaN","statusCode":"ND"}')),
    );
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.rate])).toEqual([
      ["unknown-currency", "F073.UFF.PRE.Z.D", "871.41"],
      ["unknown-currency", "F073.UFF.PRE.Z.D", "906.32"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded series exactly (values read off the files by hand)", async () => {
    const usd = recording("BCCH/001.json");
    const a = await recordsOf(bcch.parse(usd.body, { url: usd.url }));
    expect(a.slice(0, 6)).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "871.41" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "884.21" },
      { effectiveDate: "2026-03-04", currency: "USD", rate: "906.32" },
      { effectiveDate: "2026-03-05", currency: "USD", rate: "895.14" },
      { effectiveDate: "2026-03-06", currency: "USD", rate: "907.66" },
      { effectiveDate: "2026-03-09", currency: "USD", rate: "921.76" },
    ]);
    const cny = recording("BCCH/007.json");
    const b = await recordsOf(bcch.parse(cny.body, { url: cny.url }));
    expect(b.slice(0, 3)).toEqual([
      { effectiveDate: "2026-03-02", currency: "CNY", rate: "127.03" },
      { effectiveDate: "2026-03-03", currency: "CNY", rate: "128.08" },
      { effectiveDate: "2026-03-04", currency: "CNY", rate: "130.9" },
    ]);
  });

  it("asks each of the eight series with the user and password, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await bcch.fetch(
      { kind: "range", from: "2026-03-01", to: "2026-03-15" },
      { http, env: { EXRATES_BCCH_API_KEY: "me@example.cl:p:w&d" } },
    );
    expect(http.seen.map((r) => r.url)).toEqual(
      Object.keys(BCCH_SERIES).map(
        (s) =>
          `https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?user=me%40example.cl&pass=p%3Aw%26d&function=GetSeries&timeseries=${s}&firstdate=2026-03-01&lastdate=2026-03-15`,
      ),
    );
    expect(http.seen).toHaveLength(8);
    await expect(bcch.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(
      /^BCCH: needs EXRATES_BCCH_API_KEY/,
    );
    await expect(bcch.fetch({ kind: "latest" }, { http, env: { EXRATES_BCCH_API_KEY: "nocolon" } })).rejects.toThrow(
      /^BCCH: needs EXRATES_BCCH_API_KEY in the form user:password$/,
    );
  });
});
