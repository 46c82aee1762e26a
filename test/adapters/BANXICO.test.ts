import { describe, expect, it } from "vitest";

import banxico, { BANXICO_SERIES } from "../../adapters/BANXICO.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2025-12-30/2026-01-02";
const parse = (body: Buffer | string) => banxico.parse(Buffer.from(body), { url: URL });

describe("BANXICO adapter", () => {
  it("reads each series by id, skips N/E, drops thousands separators and keeps trailing zeros", async () => {
    expect(await recordsOf(parse(fixture("BANXICO/series.json")))).toEqual([
      { effectiveDate: "2025-12-30", currency: "USD", rate: "18.0050" },
      { effectiveDate: "2026-01-02", currency: "USD", rate: "17.9870" },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "0.1150" },
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "21.1020" },
      { effectiveDate: "2025-12-30", currency: "CAD", rate: "1013.2500" },
    ]);
    expect(BANXICO_SERIES).toEqual({ SF43718: "USD", SF46410: "EUR", SF46407: "GBP", SF46406: "JPY", SF60632: "CAD" });
  });

  itRefusesWhole("BANXICO", parse, [
    ["truncated JSON", '{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"30/12/2025","dato":"18.0'],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["series of another layout", '{"bmx":{"series":[{"id":"SF43718","values":[["30/12/2025","18.0050"]]}]}}'],
  ]);

  const answer = (bad: string) =>
    `{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"30/12/2025","dato":"18.0050"},${bad}]},` +
    `{"idSerie":"SF46410","datos":[{"fecha":"30/12/2025","dato":"21.1020"}]}]}}`;
  const taken = [
    { effectiveDate: "2025-12-30", currency: "USD", rate: "18.0050" },
    { effectiveDate: "2025-12-30", currency: "EUR", rate: "21.1020" },
  ];
  it.each([
    [
      "a date that does not exist",
      '{"fecha":"31/11/2025","dato":"18.0"}',
      { kind: "bad-date", effectiveDate: "31/11/2025" },
    ],
    [
      "a date in another form",
      '{"fecha":"2025-12-31","dato":"18.0"}',
      { kind: "bad-date", effectiveDate: "2025-12-31" },
    ],
    ["a placeholder it does not know", '{"fecha":"31/12/2025","dato":"n.d."}', { kind: "bad-rate", rate: "n.d." }],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), { records: taken, held: { ...held, source: "serie SF43718 datos[1]" } });
  });

  it("holds the figures of a series it did not ask for", async () => {
    const body =
      '{"bmx":{"series":[{"idSerie":"SF43718","datos":[{"fecha":"30/12/2025","dato":"18.0050"}]},' +
      '{"idSerie":"SF17908","datos":[{"fecha":"30/12/2025","dato":"18.0"}]}]}}';
    await expectOneHeld(parse(body), {
      records: [{ effectiveDate: "2025-12-30", currency: "USD", rate: "18.0050" }],
      held: { kind: "unknown-currency", currency: "SF17908", rate: "18.0", source: "serie SF17908 datos[0]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded series exactly (values read off the file by hand)", async () => {
    const r = recording("BANXICO/001.json");
    const records = await recordsOf(banxico.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(30);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-03-02", "USD")).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "17.3485" });
    expect(find("2026-03-09", "USD")).toEqual({ effectiveDate: "2026-03-09", currency: "USD", rate: "17.7687" });
    expect(find("2026-03-02", "JPY")).toEqual({ effectiveDate: "2026-03-02", currency: "JPY", rate: "0.1105" });
    expect(find("2026-03-03", "EUR")).toEqual({ effectiveDate: "2026-03-03", currency: "EUR", rate: "20.5505" });
    expect(find("2026-03-06", "CAD")).toEqual({ effectiveDate: "2026-03-06", currency: "CAD", rate: "13.0787" });
    expect(find("2026-03-04", "GBP")).toEqual({ effectiveDate: "2026-03-04", currency: "GBP", rate: "23.4719" });
  });

  it("asks the five series over the range with the Bmx-Token header, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: '{"bmx":{"series":[]}}' }));
    await banxico.fetch(
      { kind: "range", from: "2026-03-01", to: "2026-03-09" },
      { http, env: { EXRATES_BANXICO_API_KEY: "t" } },
    );
    expect(http.seen).toEqual([
      {
        method: "GET",
        url: "https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-01/2026-03-09",
        headers: { "Bmx-Token": "t" },
      },
    ]);
    await banxico.fetch({ kind: "latest" }, { http, env: { EXRATES_BANXICO_API_KEY: "t" } });
    expect(http.seen[1]!.url).toMatch(/SF60632\/datos\/\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2}$/);
    await expect(banxico.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(
      /^BANXICO: needs EXRATES_BANXICO_API_KEY/,
    );
  });
});
