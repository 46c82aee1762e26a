import { describe, expect, it } from "vitest";

import banrep from "../../adapters/BANREP.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const DATASET = "https://www.datos.gov.co/resource/32sa-8pi3.json";
const parse = (body: Buffer | string) => banrep.parse(Buffer.from(body), { url: DATASET });

describe("BANREP adapter", () => {
  it("dates each TRM by vigenciadesde only (a weekend row is not repeated) and keeps the string value", async () => {
    expect(await recordsOf(parse(fixture("BANREP/trm.json")))).toEqual([
      { effectiveDate: "2026-03-14", currency: "USD", rate: "3705.5" },
      { effectiveDate: "2026-03-17", currency: "USD", rate: "3691.90" },
      { effectiveDate: "2026-03-18", currency: "USD", rate: "3689.97" },
    ]);
  });

  it("reads an empty window as no records", async () => {
    expect(await recordsOf(parse("[]"))).toEqual([]);
  });

  itRefusesWhole("BANREP", parse, [
    ["truncated JSON", '[{"valor":"3691.9","unidad":"COP","vigenciadesde":"2026-03-17T00:00'],
    ["a SODA error", '{"code":"query.soql.no-such-column","error":true,"message":"No such column: vigencia"}'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["rows of another layout", '[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]'],
    ["another unit throughout", '[{"valor":"3691.9","unidad":"USD","vigenciadesde":"2026-03-17T00:00:00.000"}]'],
  ]);

  const rows = (bad: string) =>
    `[{"valor":"3691.90","unidad":"COP","vigenciadesde":"2026-03-17T00:00:00.000"},${bad},` +
    `{"valor":"3704.17","unidad":"COP","vigenciadesde":"2026-03-19T00:00:00.000"}]`;
  const taken = [
    { effectiveDate: "2026-03-17", currency: "USD", rate: "3691.90" },
    { effectiveDate: "2026-03-19", currency: "USD", rate: "3704.17" },
  ];
  it.each([
    [
      "a value with a decimal comma",
      '{"valor":"3.689,97","unidad":"COP","vigenciadesde":"2026-03-18T00:00:00.000"}',
      { kind: "bad-rate", rate: "3.689,97" },
    ],
    [
      "a date that does not exist",
      '{"valor":"3689.97","unidad":"COP","vigenciadesde":"2026-02-30T00:00:00.000"}',
      { kind: "bad-date", effectiveDate: "2026-02-30T00:00:00.000" },
    ],
    [
      "a row in another unit",
      '{"valor":"3689.97","unidad":"USD","vigenciadesde":"2026-03-18T00:00:00.000"}',
      { kind: "bad-row", rate: "3689.97" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(rows(bad)), { records: taken, held: { ...held, source: "row 1" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BANREP/001.json");
    expect(await recordsOf(banrep.parse(r.body, { url: r.url }))).toEqual([
      { effectiveDate: "2026-03-17", currency: "USD", rate: "3691.9" },
      { effectiveDate: "2026-03-18", currency: "USD", rate: "3689.97" },
      { effectiveDate: "2026-03-19", currency: "USD", rate: "3704.17" },
    ]);
  });

  it("asks one SoQL window on vigenciadesde", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await banrep.fetch({ kind: "range", from: "2026-03-16", to: "2026-03-19" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${DATASET}?$where=vigenciadesde%3E=%272026-03-16T00:00:00.000%27%20AND%20vigenciadesde%3C=%272026-03-19T00:00:00.000%27&$limit=50000&$order=vigenciadesde%20ASC`,
    ]);
    const latest = fakeHttp(() => ({ body: "[]" }));
    await banrep.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen[0]!.url).toMatch(
      /\$where=vigenciadesde%3E=%27\d{4}-\d{2}-\d{2}T00:00:00\.000%27%20AND%20vigenciadesde%3C=%27\d{4}-\d{2}-\d{2}T00:00:00\.000%27&\$limit=50000&\$order=vigenciadesde%20ASC$/,
    );
  });
});
