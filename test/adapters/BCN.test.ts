import { describe, expect, it } from "vitest";

import bcn, { envelope } from "../../adapters/BCN.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx";
const parse = (body: Buffer | string) => bcn.parse(Buffer.from(body), { url: URL });

describe("BCN adapter", () => {
  it("reads every day of the month, weekends included, keeping trailing zeros", async () => {
    expect(await recordsOf(parse(fixture("BCN/mes.xml")))).toEqual([
      { effectiveDate: "2023-12-30", currency: "USD", rate: "36.6243" },
      { effectiveDate: "2023-12-31", currency: "USD", rate: "36.6240" },
    ]);
  });

  itRefusesWhole("BCN", parse, [
    [
      "a truncated answer",
      '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><RecuperaTC_MesResponse><RecuperaTC_MesResult><Detalle_TC><Tc><Fecha>2023-12-30</Fecha>',
    ],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    [
      "a SOAP fault",
      '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring></soap:Fault></soap:Body></soap:Envelope>',
    ],
  ]);

  const month = (bad: string) =>
    fixture("BCN/mes.xml").toString().replace('<Detalle_TC xmlns="">', `<Detalle_TC xmlns="">${bad}`);
  it.each([
    [
      "a value with a decimal comma",
      "<Tc><Fecha>2023-12-29</Fecha><Valor>36,62</Valor></Tc>",
      { kind: "bad-rate", rate: "36,62" },
    ],
    [
      "a date that does not exist",
      "<Tc><Fecha>2023-11-31</Fecha><Valor>36.6243</Valor></Tc>",
      { kind: "bad-date", effectiveDate: "2023-11-31" },
    ],
  ] as const)("holds %s and takes the other days", async (_what, bad, held) => {
    await expectOneHeld(parse(month(bad)), {
      records: [
        { effectiveDate: "2023-12-30", currency: "USD", rate: "36.6243" },
        { effectiveDate: "2023-12-31", currency: "USD", rate: "36.6240" },
      ],
      held: { ...held, source: "<Detalle_TC> 1 <Tc> 1" },
    });
  });

  it("reads a month without rates yet as no records", async () => {
    const empty = fixture("BCN/mes.xml")
      .toString()
      .replace(/<Detalle_TC xmlns="">.*<\/Detalle_TC>/, '<Detalle_TC xmlns=""></Detalle_TC>');
    expect(await recordsOf(parse(empty))).toEqual([]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded month exactly (values read off the file by hand)", async () => {
    const r = recording("BCN/001.xml");
    expect(await recordsOf(bcn.parse(r.body, { url: r.url }))).toEqual([
      { effectiveDate: "2026-03-16", currency: "USD", rate: "36.6243" },
      { effectiveDate: "2026-03-17", currency: "USD", rate: "36.6243" },
      { effectiveDate: "2026-03-18", currency: "USD", rate: "36.6243" },
    ]);
    expect(envelope(2026, 3)).toBe(r.requestBody);
  });

  it("posts one RecuperaTC_Mes envelope per month of the range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await bcn.fetch({ kind: "range", from: "2025-12-20", to: "2026-01-10" }, { http, env: {} });
    expect(http.seen).toEqual([
      {
        method: "POST",
        url: URL,
        body: envelope(2025, 12),
        headers: {
          "Content-Type": "text/xml; charset=utf-8",
          SOAPAction: '"http://servicios.bcn.gob.ni/RecuperaTC_Mes"',
        },
      },
      {
        method: "POST",
        url: URL,
        body: envelope(2026, 1),
        headers: {
          "Content-Type": "text/xml; charset=utf-8",
          SOAPAction: '"http://servicios.bcn.gob.ni/RecuperaTC_Mes"',
        },
      },
    ]);
    expect(envelope(2025, 12)).toContain("<tns:Ano>2025</tns:Ano>\n      <tns:Mes>12</tns:Mes>");
  });
});
