import { describe, expect, it } from "vitest";

import bcu, { BCU_CURRENCIES, bcuPacing, bcuRequest } from "../../adapters/BCU.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones";
const parse = (body: Buffer | string) => bcu.parse(Buffer.from(body), { url: ENDPOINT });
const soap = (salida: string) =>
  `<?xml version="1.0"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><wsbcucotizaciones.ExecuteResponse xmlns="Cotiza"><Salida>${salida}</Salida></wsbcucotizaciones.ExecuteResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

describe("BCU adapter", () => {
  it("maps BCU codes to ISO, keeps equal TCC/TCV verbatim, means different ones and skips zeros", async () => {
    expect(await recordsOf(parse(fixture("BCU/cotizaciones.xml")))).toEqual([
      { effectiveDate: "2026-03-27", currency: "USD", rate: "40.560000" },
      { effectiveDate: "2026-03-30", currency: "ARS", rate: "0.031", derivation: "mean" },
    ]);
  });

  it("maps each of its 27 codes to a distinct ISO code", () => {
    const codes = BCU_CURRENCIES.map(([, iso]) => iso);
    expect(codes).toHaveLength(27);
    expect(new Set(codes).size).toBe(27);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  itRefusesWhole("BCU", parse, [
    [
      "truncated XML",
      '<?xml version="1.0"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>',
    ],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="2026-05-18"><Valute ID="840"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    [
      "an error status",
      soap(
        "<respuestastatus><status>0</status><codigoerror>100</codigoerror><mensaje>Fecha invalida</mensaje></respuestastatus>",
      ),
    ],
    [
      "a SOAP fault",
      '<?xml version="1.0"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><SOAP-ENV:Fault><faultstring>Bad request</faultstring></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>',
    ],
  ]);

  const dato = (fecha: string, moneda: string, tcc: string, tcv = tcc) =>
    `<datoscotizaciones.dato><Fecha>${fecha}</Fecha><Moneda>${moneda}</Moneda><TCC>${tcc}</TCC><TCV>${tcv}</TCV></datoscotizaciones.dato>`;
  const days = (bad: string) =>
    soap(
      "<respuestastatus><status>1</status></respuestastatus><datoscotizaciones>" +
        dato("2026-03-27", "2225", "40.560000") +
        bad +
        dato("2026-03-31", "2225", "40.480000") +
        "</datoscotizaciones>",
    );
  const taken = [
    { effectiveDate: "2026-03-27", currency: "USD", rate: "40.560000" },
    { effectiveDate: "2026-03-31", currency: "USD", rate: "40.480000" },
  ];
  it.each([
    ["an unknown currency code", dato("2026-03-30", "9800", "6.3"), { kind: "unknown-currency", currency: "9800" }],
    ["a non-decimal rate", dato("2026-03-30", "2225", "40,56"), { kind: "bad-rate", rate: "40,56" }],
    [
      "a date that does not exist",
      dato("2026-02-30", "2225", "40.626000"),
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
  ] as const)("holds %s and takes the other days", async (_what, bad, held) => {
    await expectOneHeld(parse(days(bad)), {
      records: taken,
      held: { ...held, source: "<datoscotizaciones> 1 <datoscotizaciones.dato> 2" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const usd = recording("BCU/001.xml");
    expect(await recordsOf(bcu.parse(usd.body, { url: usd.url }))).toEqual([
      { effectiveDate: "2026-03-27", currency: "USD", rate: "40.560000" },
      { effectiveDate: "2026-03-30", currency: "USD", rate: "40.626000" },
      { effectiveDate: "2026-03-31", currency: "USD", rate: "40.480000" },
    ]);
    const gbp = recording("BCU/013.xml");
    expect((await recordsOf(bcu.parse(gbp.body, { url: gbp.url })))[0]).toEqual({
      effectiveDate: "2026-03-27",
      currency: "GBP",
      rate: "53.819064",
    });
    const clp = recording("BCU/006.xml");
    expect((await recordsOf(bcu.parse(clp.body, { url: clp.url })))[0]).toEqual({
      effectiveDate: "2026-03-27",
      currency: "CLP",
      rate: "0.043983",
    });
  });

  it.skipIf(!sharedFeedsPresent)("writes the request exactly as the recorded one", () => {
    expect(bcuRequest("2225", "2026-03-27", "2026-03-31")).toBe(recording("BCU/001.xml").requestBody);
  });

  it("posts one SOAP request per currency for the range", async () => {
    bcuPacing.pauseMs = 0;
    const http = fakeHttp(() => ({ body: soap("<respuestastatus><status>1</status></respuestastatus>") }));
    await bcu.fetch({ kind: "range", from: "2026-03-27", to: "2026-03-31" }, { http, env: {} });
    expect(http.seen).toHaveLength(27);
    for (const r of http.seen) {
      expect(r.method).toBe("POST");
      expect(r.url).toBe(ENDPOINT);
      expect(r.headers).toEqual({ "content-type": "text/xml; charset=utf-8" });
    }
    expect(http.seen[0]!.body).toBe(bcuRequest("2225", "2026-03-27", "2026-03-31"));
    expect(http.seen[0]!.body).toContain("<cot:item>2225</cot:item>");
    expect(http.seen[0]!.body).toContain("<cot:FechaDesde>2026-03-27</cot:FechaDesde>");
    expect(http.seen[0]!.body).toContain("<cot:FechaHasta>2026-03-31</cot:FechaHasta>");
    expect(http.seen.map((r) => /<cot:item>(\d+)</.exec(r.body!)![1])).toEqual(
      BCU_CURRENCIES.map(([moneda]) => moneda),
    );
  });
});
