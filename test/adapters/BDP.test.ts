import { describe, expect, it } from "vitest";

import bdp from "../../adapters/BDP.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const BASE = "https://bpstat.bportugal.pt/data/v1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/";
const URL = `${BASE}?lang=EN&page=1&dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263&obs_since=1998-12-28&obs_to=1998-12-29`;
const parse = (body: Buffer | string) => bdp.parse(Buffer.from(body), { url: URL });

describe("BDP adapter", () => {
  it("indexes values across dimensions, keeps every digit, codes from series labels, ECU as XEU, null skipped", async () => {
    expect(await recordsOf(parse(fixture("BDP/page.json")))).toEqual([
      { effectiveDate: "1998-12-28", currency: "USD", rate: "172.392" },
      { effectiveDate: "1998-12-29", currency: "USD", rate: "171.7550" },
      { effectiveDate: "1998-12-28", currency: "XEU", rate: "201.43" },
    ]);
  });

  itRefusesWhole("BDP", parse, [
    ["truncated JSON", fixture("BDP/page.json").toString().slice(0, 900)],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["another reference currency", fixture("BDP/euro-reference.json").toString()],
    ["too few values", fixture("BDP/page.json").toString().replace("201.43,null]", "201.43]")],
  ]);

  const page = fixture("BDP/page.json").toString();
  it.each([
    [
      "a value that is not a number",
      page.replace("171.7550", '"171,7550"'),
      [
        { effectiveDate: "1998-12-28", currency: "USD", rate: "172.392" },
        { effectiveDate: "1998-12-28", currency: "XEU", rate: "201.43" },
      ],
      { kind: "bad-rate", currency: "USD", effectiveDate: "1998-12-29", rate: "171,7550" },
    ],
    [
      "a series label without its code",
      page.replace("ECU - Banco do Portugal (ECU) against Escudo", "ECU - Banco do Portugal against Escudo"),
      [
        { effectiveDate: "1998-12-28", currency: "USD", rate: "172.392" },
        { effectiveDate: "1998-12-29", currency: "USD", rate: "171.7550" },
      ],
      { kind: "unknown-currency", effectiveDate: "1998-12-28", rate: "201.43" },
    ],
  ] as const)("holds %s and takes the other values", async (_what, body, records, held) => {
    await expectOneHeld(parse(body), { records: [...records], held });
  });

  it("asks every page with all dim_cats filters until there is no next page", async () => {
    const last = fixture("BDP/euro-reference.json").toString().replace('"Euro"', '"Portuguese Escudo"');
    const http = fakeHttp((req) => ({ body: req.url.includes("page=1&") ? fixture("BDP/page.json") : last }));
    const docs = await bdp.fetch({ kind: "range", from: "1987-01-01", to: "1991-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${BASE}?lang=EN&page=1&dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263&obs_since=1987-01-01&obs_to=1991-12-31`,
      `GET ${BASE}?lang=EN&page=2&dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263&obs_since=1987-01-01&obs_to=1991-12-31`,
    ]);
    expect(docs).toHaveLength(2);
    const latest = fakeHttp(() => ({ body: last }));
    await bdp.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.map((r) => r.url)).toEqual([
      `${BASE}?lang=EN&page=1&dim_cats=13:794&dim_cats=18:35&dim_cats=40:4263&obs_since=1998-12-01&obs_to=1998-12-31`,
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded pages exactly (values read off the files by hand)", async () => {
    const r1 = recording("BDP/001.json");
    const p1 = await recordsOf(bdp.parse(r1.body, { url: r1.url }));
    const find = (records: typeof p1, date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    // Category 826 (USD) is first: values 172.392, 171.755, 171.036, 171.829.
    expect(find(p1, "1998-12-28", "USD")).toEqual({ effectiveDate: "1998-12-28", currency: "USD", rate: "172.392" });
    expect(find(p1, "1998-12-31", "USD")).toEqual({ effectiveDate: "1998-12-31", currency: "USD", rate: "171.829" });
    // Category 2777 (ECU) is sixth: 201.43, 201.324, 200.991, 200.482.
    expect(find(p1, "1998-12-28", "XEU")).toEqual({ effectiveDate: "1998-12-28", currency: "XEU", rate: "201.43" });
    // Category 756 (ITL) is ninth: 0.10353 …
    expect(find(p1, "1998-12-28", "ITL")).toEqual({ effectiveDate: "1998-12-28", currency: "ITL", rate: "0.10353" });
    // Category 783 (NLG) has no series on page 1.
    expect(find(p1, "1998-12-28", "NLG")).toBeUndefined();
    const r2 = recording("BDP/002.json");
    const p2 = await recordsOf(bdp.parse(r2.body, { url: r2.url }));
    // Page 2: category 758 (JPY) is first: 1.4821 …; 720 (CVE) is fifth: 1.8182 on every day.
    expect(find(p2, "1998-12-28", "JPY")).toEqual({ effectiveDate: "1998-12-28", currency: "JPY", rate: "1.4821" });
    expect(find(p2, "1998-12-31", "CVE")).toEqual({ effectiveDate: "1998-12-31", currency: "CVE", rate: "1.8182" });
  });
});
