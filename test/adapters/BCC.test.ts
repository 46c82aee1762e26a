import { describe, expect, it } from "vitest";

import bcc from "../../adapters/BCC.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_AUD =
  "https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=AUD&fechaFin=2026-05-25&fechaInicio=2026-05-19";
const parse = (body: Buffer | string, url = URL_AUD) => bcc.parse(Buffer.from(body), { url });

describe("BCC adapter", () => {
  it("takes tasaEspecial exactly, for the currency named in the URL, weekends included", async () => {
    expect(await recordsOf(parse(fixture("BCC/historico.json")))).toEqual([
      { effectiveDate: "2026-05-19", currency: "AUD", rate: "359.2061" },
      { effectiveDate: "2026-05-20", currency: "AUD", rate: "360.65440" },
      { effectiveDate: "2026-05-24", currency: "AUD", rate: "362.63175" },
      { effectiveDate: "2026-05-25", currency: "AUD", rate: "507" },
    ]);
  });

  itRefusesWhole("BCC", parse, [
    ["truncated JSON", '[{"fecha":"2026-05-19","tasaOficial":17.1732,"tasaEspecial":359.2'],
    ["another bank's body", '{"success":true,"data":[{"RATE_DATE":"2026-05-20","USD":"3,576.17"}]}'],
    ["rows of another layout", '[{"RATE_DATE":"2026-05-20","USD":"3,576.17"}]'],
  ]);

  const days = (bad: string) =>
    `[{"fecha":"2026-05-19","tasaOficial":17.1732,"tasaPublica":85.866,"tasaEspecial":359.2061},${bad},` +
    `{"fecha":"2026-05-21","tasaOficial":17.166,"tasaPublica":85.83,"tasaEspecial":362.63175}]`;
  const taken = [
    { effectiveDate: "2026-05-19", currency: "AUD", rate: "359.2061" },
    { effectiveDate: "2026-05-21", currency: "AUD", rate: "362.63175" },
  ];
  it.each([
    [
      "a date in another form",
      '{"fecha":"20/05/2026","tasaEspecial":360.65445}',
      { kind: "bad-date", effectiveDate: "20/05/2026" },
    ],
    [
      "a date that does not exist",
      '{"fecha":"2026-05-32","tasaEspecial":360.65445}',
      { kind: "bad-date", effectiveDate: "2026-05-32" },
    ],
    ["a non-decimal figure", '{"fecha":"2026-05-20","tasaEspecial":"ND"}', { kind: "bad-rate", rate: "ND" }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(days(bad)), { records: taken, held: { ...held, source: "row 1" } });
  });

  it("rejects an answer whose URL names no known currency", async () => {
    await expect(async () =>
      parse("[]", "https://api.bc.gob.cu/v1/tasas-de-cambio/historico?fechaFin=2026-05-25"),
    ).rejects.toThrow(/^BCC: .*codigoMoneda/);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const aud = recording("BCC/001.json");
    expect(await recordsOf(bcc.parse(aud.body, { url: aud.url }))).toEqual([
      { effectiveDate: "2026-05-19", currency: "AUD", rate: "359.2061" },
      { effectiveDate: "2026-05-20", currency: "AUD", rate: "360.65445" },
      { effectiveDate: "2026-05-21", currency: "AUD", rate: "362.63175" },
      { effectiveDate: "2026-05-22", currency: "AUD", rate: "362.98665" },
    ]);
    const usd = recording("BCC/013.json");
    const records = await recordsOf(bcc.parse(usd.body, { url: usd.url }));
    expect(records[0]).toEqual({ effectiveDate: "2026-05-19", currency: "USD", rate: "502" });
    expect(records[3]).toEqual({ effectiveDate: "2026-05-22", currency: "USD", rate: "507" });
  });

  it("asks the history of each of the 13 currencies for the range", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await bcc.fetch({ kind: "range", from: "2026-05-19", to: "2026-05-22" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual(
      ["AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "JPY", "MXN", "NOK", "RUB", "SEK", "USD"].map(
        (c) =>
          `https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=${c}&fechaFin=2026-05-22&fechaInicio=2026-05-19`,
      ),
    );
  });
});
