import { describe, expect, it } from "vitest";

import bcrp from "../../adapters/BCRP.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_ING =
  "https://estadisticas.bcrp.gob.pe/estadisticas/series/api/PD04639PD-PD04640PD/json/2025-08-29/2025-09-03/ing";
const parse = (body: Buffer | string) => bcrp.parse(Buffer.from(body), { url: URL_ING });

const SERIES = (buy: string, sell: string) =>
  `{"config":{"title":"Tipo de cambio","series":[{"name":"${buy}","dec":"3"},{"name":"${sell}","dec":"3"}]},`;
const SBS = SERIES(
  "Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Compra",
  "Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Venta",
);
const answer = (...periods: Array<[string, string, string]>) =>
  `${SBS}"periods":[${periods.map(([name, b, s]) => `{"name":"${name}","values":["${b}","${s}"]}`).join(",")}]}`;

describe("BCRP adapter", () => {
  it("publishes the exact mean of the SBS buy and sell (the text itself when equal), English months with `Set`, n.d. days skipped", async () => {
    expect(await recordsOf(parse(fixture("BCRP/sbs-ing.json")))).toEqual([
      { effectiveDate: "2025-08-29", currency: "USD", rate: "3.525", derivation: "mean" },
      { effectiveDate: "2025-09-01", currency: "USD", rate: "3.504", derivation: "mean" },
      { effectiveDate: "2025-09-02", currency: "USD", rate: "3.497" },
    ]);
  });

  it("reads the Spanish month names of the /esp answer (Ene, Abr, Ago, Dic)", async () => {
    expect(await recordsOf(parse(fixture("BCRP/sbs-esp.json")))).toEqual([
      { effectiveDate: "2026-01-02", currency: "USD", rate: "3.3665", derivation: "mean" },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "3.414", derivation: "mean" },
      { effectiveDate: "2026-08-03", currency: "USD", rate: "3.392", derivation: "mean" },
      { effectiveDate: "2026-12-30", currency: "USD", rate: "3.3525", derivation: "mean" },
    ]);
  });

  it("takes the pair whichever order the series come in", async () => {
    const swapped = `${SERIES(
      "Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Venta",
      "Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Compra",
    )}"periods":[{"name":"02.Set.25","values":["3.51","3.5"]}]}`;
    expect(await recordsOf(parse(swapped))).toEqual([
      { effectiveDate: "2025-09-02", currency: "USD", rate: "3.505", derivation: "mean" },
    ]);
  });

  it("reads a range without data as the bank saying that nothing was published", async () => {
    expect(await answerOf(parse(answer()))).toEqual({
      records: [],
      held: [],
      noPublication: "no period of the range asked carries a figure",
    });
  });

  itRefusesWhole("BCRP", parse, [
    [
      "the interbank series instead of the SBS pair",
      `${SERIES(
        "Tipo de cambio - TC Interbancario (S/ por US$) - Compra",
        "Tipo de cambio - TC Interbancario (S/ por US$) - Venta",
      )}"periods":[{"name":"02.Set.25","values":["3.4991","3.5013"]}]}`,
    ],
    [
      "the SBS pair with a third series",
      `{"config":{"series":[{"name":"Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Compra"},{"name":"Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - Venta"},{"name":"Tipo de cambio - Euro (S/ por Euro) - Compra"}]},"periods":[]}`,
    ],
    ["an answer without periods", `${SBS}"data":[]}`],
    ["an answer without config", `{"periods":[]}`],
    ["truncated JSON", answer(["01.Set.25", "3.5", "3.508"]).slice(0, 160)],
  ]);

  it.each([
    ["one side missing", ["01.Set.25", "3.5", "n.d."], { kind: "bad-rate", effectiveDate: "01.Set.25" }],
    ["a date that does not exist", ["31.Set.25", "3.5", "3.508"], { kind: "bad-date", effectiveDate: "31.Set.25" }],
    ["an unknown month", ["01.Sex.25", "3.5", "3.508"], { kind: "bad-date", effectiveDate: "01.Sex.25" }],
    ["a figure that is not a number", ["01.Set.25", "3.5O", "3.508"], { kind: "bad-rate" }],
  ] as const)("holds a period with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(["29.Aug.25", "3.521", "3.529"], [...bad])), {
      records: [{ effectiveDate: "2025-08-29", currency: "USD", rate: "3.525", derivation: "mean" }],
      held: { ...held, currency: "USD", source: `periods[1] "${bad[0]}"` },
    });
  });

  it("asks for the SBS pair over the exact range of a backfill chunk, and the last ten days for the latest", async () => {
    const http = fakeHttp(() => ({ body: answer() }));
    await bcrp.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://estadisticas.bcrp.gob.pe/estadisticas/series/api/PD04639PD-PD04640PD/json/2025-01-01/2025-12-31/ing",
    );
    await bcrp.fetch({ kind: "latest" }, { http, env: {} });
    const m = /\/json\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\/ing$/.exec(http.seen[1]!.url);
    expect(m).not.toBeNull();
    expect((Date.parse(m![2]!) - Date.parse(m![1]!)) / 86_400_000).toBe(10);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BCRP/001.json");
    expect(r.contentType).toMatch(/^text\/html/); // JSON served as HTML
    expect(await answerOf(bcrp.parse(r.body, { url: r.url }))).toEqual({
      records: [
        { effectiveDate: "2026-09-01", currency: "USD", rate: "3.364", derivation: "mean" }, // 3.36 / 3.368
        { effectiveDate: "2026-09-02", currency: "USD", rate: "3.3565", derivation: "mean" }, // 3.353 / 3.36
        { effectiveDate: "2026-09-03", currency: "USD", rate: "3.36", derivation: "mean" }, // 3.355 / 3.365
        { effectiveDate: "2026-09-04", currency: "USD", rate: "3.3645", derivation: "mean" }, // 3.36 / 3.369
        { effectiveDate: "2026-09-07", currency: "USD", rate: "3.3615", derivation: "mean" }, // 3.351 / 3.372
      ], // 08.Set.26 is n.d.
      held: [],
    });
  });
});
