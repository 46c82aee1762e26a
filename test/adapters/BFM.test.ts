import { describe, expect, it } from "vitest";

import bfm, { BFM_CURRENCIES, bfmForm } from "../../adapters/BFM.js";
import { parseDocuments } from "../../src/ingest/ingest.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, recordings, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://www.banky-foibe.mg/admin/wp-json/bfm/cours_mid_en_ar_filter";
const asked = (currency: string, from = "2026-03-02", to = "2026-03-04") => ({
  url: ENDPOINT,
  requestBody: bfmForm(currency, from, to),
});
const parse = (body: Buffer | string, currency = "USD") => bfm.parse(Buffer.from(body), asked(currency));
/** An answer whose coursMid and grapheData are given. */
const answer = (mid: Record<string, string>, chart: Record<string, string> = {}) =>
  JSON.stringify({
    code: "cours-de-mid-en-ar-filter",
    data: { status: 200, data: { coursMid: mid, coursMidMax: [], coursMidMin: [], grapheData: chart } },
  });

/** Each currency's own figure in a form's answer: JPY 28,10, the others 1 000,01 to 1 000,19 in the order asked. */
const figureFor = (form: string) => {
  const code = new URLSearchParams(form).get("filterData")!;
  return code === "JPY" ? "28,10" : `1 000,${String(BFM_CURRENCIES.indexOf(code as "EUR") + 1).padStart(2, "0")}`;
};

describe("BFM adapter", () => {
  it("reads coursMid (space thousands, decimal comma, trailing zeros kept) for the currency the form asked for", async () => {
    expect(await recordsOf(parse(fixture("BFM/usd.json")))).toEqual([
      { effectiveDate: "2026-03-04", currency: "USD", rate: "4412.50" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "4405.07" },
      { effectiveDate: "2026-03-02", currency: "USD", rate: "4398.61" },
    ]);
    expect(await recordsOf(parse(fixture("BFM/jpy.json"), "JPY"))).toEqual([
      { effectiveDate: "2026-03-03", currency: "JPY", rate: "28.10" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "27.95" },
    ]);
  });

  it("reads a window without a fixing (PHP's [] everywhere) as the bank publishing nothing", async () => {
    expect(await answerOf(parse(fixture("BFM/no-fixing.json")))).toEqual({
      records: [],
      held: [],
      noPublication: "coursMid is empty: no fixing in the window asked",
    });
  });

  it("takes the currency from the URL's filterData for a saved answer given with one", async () => {
    const records = await recordsOf(bfm.parse(fixture("BFM/jpy.json"), { url: `${ENDPOINT}?filterData=JPY` }));
    expect(records.map((r) => r.currency)).toEqual(["JPY", "JPY"]);
  });

  it("refuses an answer whose currency cannot be told (no form, no filterData)", () => {
    expect(() => bfm.parse(fixture("BFM/usd.json"), { url: ENDPOINT })).toThrow(/^BFM: .*filterData/);
  });

  it("refuses an answer holding a date outside the window asked for (another request's, cached)", () => {
    expect(() => bfm.parse(fixture("BFM/usd.json"), asked("USD", "2026-03-03", "2026-03-04"))).toThrow(
      /^BFM: an answer for another request: 2026-03-02/,
    );
  });

  itRefusesWhole("BFM", (body) => parse(body), [
    [
      "truncated JSON",
      '{"code":"cours-de-mid-en-ar-filter","data":{"status":200,"data":{"coursMid":{"2026-03-04":"4 4',
    ],
    ["a WordPress error", '{"code":"rest_no_route","message":"Aucune route correspondante","data":{"status":404}}'],
    ["coursMid of another shape", answer({}).replace('"coursMid":{}', '"coursMid":"4 412,50"')],
  ]);

  it("refuses an answer to a form asking for a code that is not ISO 4217", () => {
    expect(() => parse(fixture("BFM/usd.json"), "EURO")).toThrow(/^BFM: /);
  });

  const good = { "2026-03-03": "4 405,07" };
  it.each([
    ["a figure that is not a number", { ...good, "2026-03-04": "n.d." }, { kind: "bad-rate", rate: "n.d." }],
    ["a figure grouped wrongly", { ...good, "2026-03-04": "44 12,50" }, { kind: "bad-rate" }],
    [
      "a date that does not exist",
      { ...good, "2026-02-30": "4 400,00" },
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
  ] as const)("holds %s and takes the other dates", async (_what, mid, held) => {
    await expectOneHeld(bfm.parse(Buffer.from(answer(mid)), asked("USD", "2026-02-01", "2026-03-04")), {
      records: [{ effectiveDate: "2026-03-03", currency: "USD", rate: "4405.07" }],
      held,
    });
  });

  it("holds a date whose coursMid and grapheData disagree", async () => {
    await expectOneHeld(parse(answer({ ...good, "2026-03-04": "4 412,50" }, { "2026-03-04": "4421.50" })), {
      records: [{ effectiveDate: "2026-03-03", currency: "USD", rate: "4405.07" }],
      held: { kind: "conflict", effectiveDate: "2026-03-04", rate: "4 412,50" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded answers (values read off the files by hand)", async () => {
    const read = async (file: string) => {
      const r = recording(file);
      return recordsOf(bfm.parse(r.body, { url: r.url, requestBody: r.requestBody }));
    };
    expect(await read("BFM/001.json")).toEqual([
      { effectiveDate: "2026-09-23", currency: "EUR", rate: "4983.29" },
      { effectiveDate: "2026-09-22", currency: "EUR", rate: "4994.66" },
      { effectiveDate: "2026-09-21", currency: "EUR", rate: "4984.87" },
    ]);
    expect((await read("BFM/006.json"))[2]).toEqual({ effectiveDate: "2026-09-21", currency: "CAD", rate: "3125.00" });
    expect((await read("BFM/011.json"))[0]).toEqual({ effectiveDate: "2026-09-23", currency: "XDR", rate: "5992.63" });
    expect((await read("BFM/020.json")).at(-1)).toEqual({
      effectiveDate: "2018-01-02",
      currency: "EUR",
      rate: "3873.76",
    });
    expect(recordings("BFM")).toHaveLength(17);
  });

  it("posts one form per currency (slashes escaped, the bank's field order) and parses each with its own currency", async () => {
    const http = fakeHttp((req) => ({
      body: answer({ "2026-03-03": figureFor(req.body!) }),
      contentType: "application/json; charset=UTF-8",
    }));
    const docs = await bfm.fetch({ kind: "range", from: "2026-03-02", to: "2026-03-04" }, { http, env: {} });
    expect(http.seen).toHaveLength(19);
    expect(http.seen[0]).toMatchObject({
      method: "POST",
      url: ENDPOINT,
      body: "dateFilterDebut=2026%2F03%2F02&dateFilterFin=2026%2F03%2F04&filterData=EUR",
      headers: { Origin: "https://www.banky-foibe.mg", Referer: "https://www.banky-foibe.mg/" },
    });
    expect(http.seen.map((r) => new URLSearchParams(r.body).get("filterData"))).toEqual([...BFM_CURRENCIES]);
    // Through ingest: each answer is read as the currency its own form asked for.
    const parsed = await parseDocuments(bfm, docs);
    const jpy = parsed.flatMap((p) => p.records).find((r) => r.currency === "JPY");
    expect(jpy).toEqual({ effectiveDate: "2026-03-03", currency: "JPY", rate: "28.10" });
    expect(new Set(parsed.flatMap((p) => p.records.map((r) => r.currency))).size).toBe(19);
  });

  it("refuses a fetch in which two currencies' answers give the same figures (one answers another's form)", async () => {
    const http = fakeHttp((req) => ({
      body: answer({ "2026-03-03": req.body!.endsWith("NZD") ? figureFor("filterData=EUR") : figureFor(req.body!) }),
    }));
    await expect(bfm.fetch({ kind: "range", from: "2026-03-02", to: "2026-03-04" }, { http, env: {} })).rejects.toThrow(
      /^BFM: the answers for EUR and NZD give the same figures/,
    );
  });

  it("takes identical answers without a fixing (a holiday window) as they are", async () => {
    const http = fakeHttp(() => ({ body: fixture("BFM/no-fixing.json") }));
    const docs = await bfm.fetch({ kind: "range", from: "2026-03-07", to: "2026-03-08" }, { http, env: {} });
    expect(docs).toHaveLength(19);
  });

  it("asks for the last seven days for the latest", async () => {
    const http = fakeHttp(() => ({ body: answer({}) }));
    await bfm.fetch({ kind: "latest" }, { http, env: {} });
    const form = new URLSearchParams(http.seen[0]!.body);
    const from = form.get("dateFilterDebut")!.replaceAll("/", "-");
    const to = form.get("dateFilterFin")!.replaceAll("/", "-");
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(7);
  });
});
