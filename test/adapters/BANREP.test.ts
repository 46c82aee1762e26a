import { describe, expect, it } from "vitest";

import banrep from "../../adapters/BANREP.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const DATASET = "https://www.datos.gov.co/resource/32sa-8pi3.json";
const parse = (body: Buffer | string) => banrep.parse(Buffer.from(body), { url: DATASET });

describe("BANREP adapter", () => {
  it("dates each TRM by vigenciadesde only (a weekend row is not repeated) and keeps the string value", async () => {
    expect(await parse(fixture("BANREP/trm.json"))).toEqual([
      { effectiveDate: "2026-03-14", currency: "USD", rate: "3705.5" },
      { effectiveDate: "2026-03-17", currency: "USD", rate: "3691.90" },
      { effectiveDate: "2026-03-18", currency: "USD", rate: "3689.97" },
    ]);
  });

  it("reads an empty window as no records", async () => {
    expect(await parse("[]")).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Service Unavailable</body></html>"],
    ["truncated JSON", '[{"valor":"3691.9","unidad":"COP","vigenciadesde":"2026-03-17T00:00'],
    ["a SODA error", '{"code":"query.soql.no-such-column","error":true,"message":"No such column: vigencia"}'],
    [
      "another bank's body (CNB)",
      '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.170}]}',
    ],
    ["another unit", '[{"valor":"3691.9","unidad":"USD","vigenciadesde":"2026-03-17T00:00:00.000"}]'],
    ["a numeric value with a comma", '[{"valor":"3.691,90","unidad":"COP","vigenciadesde":"2026-03-17T00:00:00.000"}]'],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BANREP: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BANREP/001.json");
    expect(await banrep.parse(r.body, { url: r.url })).toEqual([
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
