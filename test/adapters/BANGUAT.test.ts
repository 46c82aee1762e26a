import { describe, expect, it } from "vitest";

import banguat, { banguatRangeRequest } from "../../adapters/BANGUAT.js";
import { parseXml } from "../../src/feed/kit.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx";
const parse = (body: Buffer | string) => banguat.parse(Buffer.from(body), { url: ENDPOINT });

const ENVELOPE = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const rango = (vars: Array<[fecha: string, venta: string, compra: string, moneda?: string]>, total = vars.length) =>
  ENVELOPE(
    `<TipoCambioRangoResponse xmlns="http://www.banguat.gob.gt/variables/ws/"><TipoCambioRangoResult><Vars>${vars
      .map(
        ([fecha, venta, compra, moneda = "2"]) =>
          `<Var><moneda>${moneda}</moneda><fecha>${fecha}</fecha><venta>${venta}</venta><compra>${compra}</compra></Var>`,
      )
      .join("")}</Vars><TotalItems>${total}</TotalItems></TipoCambioRangoResult></TipoCambioRangoResponse>`,
  );

describe("BANGUAT adapter", () => {
  it("reads a range as written, keeps weekday holidays and skips the weekend's carry-over of Friday", async () => {
    expect(await recordsOf(parse(fixture("BANGUAT/rango-2026.xml")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "USD", rate: "7.65012" },
      { effectiveDate: "2026-04-02", currency: "USD", rate: "7.65012" }, // Holy Thursday: the bank states it
      { effectiveDate: "2026-04-03", currency: "USD", rate: "7.65012" },
      { effectiveDate: "2026-04-06", currency: "USD", rate: "7.6487" },
    ]);
  });

  it("publishes the exact mean of venta and compra before December 2006, when they differ", async () => {
    expect(await recordsOf(parse(fixture("BANGUAT/rango-2006.xml")))).toEqual([
      { effectiveDate: "2006-11-24", currency: "USD", rate: "7.59735", derivation: "mean" },
      { effectiveDate: "2006-11-27", currency: "USD", rate: "7.605", derivation: "mean" },
      { effectiveDate: "2006-12-01", currency: "USD", rate: "7.60218" },
    ]);
  });

  it("takes the mean whichever side is higher (buying above selling, as on some days of 1990-91)", async () => {
    expect(await recordsOf(parse(rango([["15/01/1991", "5.12", "5.13"]])))).toEqual([
      { effectiveDate: "1991-01-15", currency: "USD", rate: "5.125", derivation: "mean" },
    ]);
  });

  it("reads TipoCambioDia's reference rate", async () => {
    expect(await recordsOf(parse(fixture("BANGUAT/dia.xml")))).toEqual([
      { effectiveDate: "2026-06-15", currency: "USD", rate: "7.61984" },
    ]);
  });

  it("keeps a weekend day whose figure is its own, skips one whose day before the answer lacks", async () => {
    const records = await recordsOf(
      parse(
        rango([
          ["04/04/2026", "7.65012", "7.65012"], // Saturday, first of the answer: Friday's carry-over
          ["05/04/2026", "7.651", "7.651"], // Sunday with a figure of its own
          ["06/04/2026", "7.6487", "7.6487"],
        ]),
      ),
    );
    expect(records).toEqual([
      { effectiveDate: "2026-04-05", currency: "USD", rate: "7.651" },
      { effectiveDate: "2026-04-06", currency: "USD", rate: "7.6487" },
    ]);
  });

  it("skips a day without a rate (zero or empty): an answer of only such days says that nothing was published", async () => {
    const none = {
      records: [],
      held: [],
      noPublication: "every day of the answer is a weekend carry-over or without a rate",
    };
    expect(await answerOf(parse(rango([["02/03/2000", "0", "0"]])))).toEqual(none);
    expect(await answerOf(parse(rango([["02/03/2000", "", ""]])))).toEqual(none);
  });

  it("refuses a SOAP fault with its reason", async () => {
    await expect(async () => parse(fixture("BANGUAT/fault.xml"))).rejects.toThrow(
      /^BANGUAT: SOAP fault: .*Cadena de entrada incorrecta/,
    );
  });

  itRefusesWhole("BANGUAT", parse, [
    ["a SOAP fault", fixture("BANGUAT/fault.xml")],
    ["an answer whose TotalItems says more days than it holds", rango([["01/04/2026", "7.65012", "7.65012"]], 2)],
    ["another operation's answer", ENVELOPE("<VariablesDisponiblesResponse><x>1</x></VariablesDisponiblesResponse>")],
    ["truncated XML", fixture("BANGUAT/rango-2026.xml").subarray(0, 400)],
  ]);

  it.each([
    ["a date that does not exist", ["31/04/2026", "7.65", "7.65"], { kind: "bad-date", effectiveDate: "31/04/2026" }],
    ["a figure that is not a number", ["02/04/2026", "7,65O", "7,65O"], { kind: "bad-rate" }],
    ["one side missing", ["02/04/2026", "7.65", ""], { kind: "bad-rate" }],
    ["another currency number", ["02/04/2026", "7.65", "7.65", "3"], { kind: "unknown-currency", currency: "3" }],
  ] as const)("holds a day with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(rango([["01/04/2026", "7.65012", "7.65012"], [...bad]])), {
      records: [{ effectiveDate: "2026-04-01", currency: "USD", rate: "7.65012" }],
      held: { ...held, source: "<Var> 2" },
    });
  });

  it("asks TipoCambioRango by SOAP 1.1 for a chunk and the two days before it, and for the last week", async () => {
    const http = fakeHttp(() => ({ body: rango([]) }));
    await banguat.fetch({ kind: "range", from: "2026-03-02", to: "2026-03-31" }, { http, env: {} });
    const seen = http.seen[0]!;
    expect(seen).toMatchObject({
      method: "POST",
      url: ENDPOINT,
      headers: {
        "content-type": "text/xml; charset=utf-8",
        soapaction: '"http://www.banguat.gob.gt/variables/ws/TipoCambioRango"',
      },
    });
    const call = parseXml("BANGUAT", seen.body!) as Record<string, Record<string, Record<string, unknown>>>;
    expect(call["soap:Envelope"]!["soap:Body"]!.TipoCambioRango).toEqual({
      "@xmlns": "http://www.banguat.gob.gt/variables/ws/",
      fechainit: "28/02/2026",
      fechafin: "31/03/2026",
    });
    expect(banguatRangeRequest("2026-02-28", "2026-03-31")).toBe(seen.body);
    await banguat.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[1]!.body).toMatch(/<fechainit>\d{2}\/\d{2}\/\d{4}<\/fechainit>/);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const read = (file: string) => {
      const r = recording(file);
      return answerOf(banguat.parse(r.body, { url: r.url }));
    };
    expect(await read("BANGUAT/001.xml")).toEqual({
      records: [{ effectiveDate: "2026-05-26", currency: "USD", rate: "7.6226" }],
      held: [],
    });
    // 20-26 May 2026: Saturday 23 and Sunday 24 repeat Friday 22 (7.62106).
    expect((await read("BANGUAT/002.xml")).records.map((r) => `${r.effectiveDate} ${r.rate}`)).toEqual([
      "2026-05-20 7.62313",
      "2026-05-21 7.62184",
      "2026-05-22 7.62106",
      "2026-05-25 7.61679",
      "2026-05-26 7.6226",
    ]);
    // 1-20 March 2026: 20 days less Sunday 1 (its Saturday is not in the answer) and two weekends.
    const march = (await read("BANGUAT/004.xml")).records;
    expect(march).toHaveLength(20 - 5);
    expect(march[0]).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "7.66143" });
    expect(march.find((r) => r.effectiveDate === "2026-03-06")?.rate).toBe("7.66271");
    expect(march.some((r) => r.effectiveDate === "2026-03-07" || r.effectiveDate === "2026-03-08")).toBe(false);
  });
});
