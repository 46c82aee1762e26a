// Figures published with a warning (the cross-bank check doubted them without holding them) carry it in
// every rates answer: a `warnings` member per date (JSON), a `warning` attribute (XML, valid against the
// XSD), a Warnings column after Unit (CSV, XLSX) and `X-Rate-Warnings: <count>`; Latest (the published
// tree), a date, a range, a filtered Latest and asOf alike. A warning about a figure since replaced flags
// nothing, and an answer without warnings has neither the column nor the header.
import * as client from "openid-client";
import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";

import ecb from "../../adapters/ECB.js";
import { publish } from "../support/unsigned.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches, type Provenance } from "../../src/store/rates.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

/** A reason with the characters each format must escape: a comma and quotes (CSV), < > & " (XML, JSON). */
const REASON = 'JPY 170.00 on 2026-03-03 is 4.7% off "the other bank" (1 bank, <2 needed> & no consensus)';
const STORED_AT = new Date("2026-03-03T15:00:00Z");

const provenance = (day: string): Provenance => ({
  kind: "import",
  method: "GET",
  url: "https://bank.example/feed",
  startedAt: STORED_AT,
  finishedAt: STORED_AT,
  httpStatus: 200,
  body: Buffer.from(day),
});

beforeAll(async () => {
  h = await startHarness({ publish: false });
  ingestBatches(
    h.store,
    "ECB",
    [
      {
        provenance: provenance("2026-03-02"),
        records: [
          { effectiveDate: "2026-03-02", currency: "JPY", rate: "162.30" },
          { effectiveDate: "2026-03-02", currency: "USD", rate: "1.0850" },
        ],
      },
    ],
    new Date("2026-03-02T15:00:00Z"),
  );
  ingestBatches(
    h.store,
    "ECB",
    [
      {
        provenance: provenance("2026-03-03"),
        records: [
          { effectiveDate: "2026-03-03", currency: "JPY", rate: "170.00" },
          { effectiveDate: "2026-03-03", currency: "USD", rate: "1.0900" },
        ],
        anomalies: [
          // The stored figure: flagged.
          {
            kind: "jump",
            reason: REASON,
            status: "warned",
            effectiveDate: "2026-03-03",
            currency: "JPY",
            rate: "170.00",
            unitMultiplier: 0,
          },
          // Another figure than the one stored (replaced since): flags nothing.
          {
            kind: "jump",
            reason: "USD 1.2000 doubted",
            status: "warned",
            effectiveDate: "2026-03-03",
            currency: "USD",
            rate: "1.2000",
            unitMultiplier: 0,
          },
        ],
      },
    ],
    STORED_AT,
  );
  recordQuoting(h.store, "ECB", "EUR", "Indirect");
  await publish(h.store, [ecb], h.config.outDir);
  const config = await client.discovery(
    new URL(h.issuer),
    h.client.id,
    undefined,
    client.ClientSecretBasic(h.client.secret),
    { execute: [client.allowInsecureRequests] },
  );
  const tokens = await client.clientCredentialsGrant(config, { scope: h.config.scope });
  auth = { authorization: `Bearer ${tokens.access_token}` };
  // The server picks the new tree up within a second.
  for (let i = 0; i < 50; i++) {
    if ((await get("/v1/Banks/ECB/DailyRates/Latest")).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => h.close());

const get = (path: string) => fetch(`${h.url}${path}`, { headers: auth });

async function text(path: string): Promise<{ body: string; warnings: string | null }> {
  const res = await get(path);
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return { body, warnings: res.headers.get("x-rate-warnings") };
}

const WARNED_JSON = `{
  "bankId": "ECB",
  "baseCurrency": "EUR",
  "quoteType": "Indirect",
  "rates": {
    "2026-03-03": {
      "JPY": {
        "rate": 170.00
      },
      "USD": {
        "rate": 1.0900
      },
      "warnings": {
        "JPY": ${JSON.stringify(REASON)}
      }
    }
  }
}
`;
const WARNED_XML_RATE =
  '<Rate currency="JPY" value="170.00" warning="JPY 170.00 on 2026-03-03 is 4.7% off &quot;the other bank&quot; (1 bank, &lt;2 needed&gt; &amp; no consensus)"/>';
const WARNED_CSV = `BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit,Warnings
ECB,EUR,JPY,2026-03-03,170.00,1,"JPY 170.00 on 2026-03-03 is 4.7% off ""the other bank"" (1 bank, <2 needed> & no consensus)"
ECB,EUR,USD,2026-03-03,1.0900,1,
`;

describe("a figure published with a warning", () => {
  for (const path of ["/v1/Banks/ECB/DailyRates/Latest", "/v1/Banks/ECB/DailyRates/2026-03-03"]) {
    it(`${path}: flagged in JSON, XML (valid against the XSD) and CSV, and counted in X-Rate-Warnings`, async () => {
      const json = await text(`${path}.json`);
      expect(json.body).toBe(WARNED_JSON);
      expect(json.warnings).toBe("1");

      const xml = await text(`${path}.xml`);
      expect(xml.body).toContain(`    ${WARNED_XML_RATE}\n    <Rate currency="USD" value="1.0900"/>\n`);
      expect(xml.warnings).toBe("1");
      const valid = await validateXML({
        xml: [{ fileName: "r.xml", contents: xml.body }],
        schema: [{ fileName: "s.xsd", contents: EXCHANGE_RATES_XSD }],
      });
      expect(valid.errors).toEqual([]);

      const csv = await text(`${path}.csv`);
      expect(csv.body).toBe(WARNED_CSV);
      expect(csv.warnings).toBe("1");
    });

    it(`${path}: XLSX has the Warnings column after Unit`, async () => {
      const res = await get(`${path}.xlsx`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-rate-warnings")).toBe("1");
      const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false, defval: "" });
      expect(rows[0]).toEqual([
        "BankId",
        "From Currency",
        "To Currency",
        "Effective Date",
        "Exchange Rate",
        "Unit",
        "Warnings",
      ]);
      expect(rows[1]![6]).toBe(REASON);
      expect(rows[2]![6]).toBe("");
      expect(wb.Sheets.Rates!["!autofilter"]?.ref).toBe("A1:G3");
    });
  }

  it("a range: the column for every row, empty where a figure has none; the count of the range's warnings", async () => {
    const csv = await text("/v1/Banks/ECB/DailyRates.csv?from=2026-03-02&to=2026-03-03");
    expect(csv.warnings).toBe("1");
    expect(csv.body).toBe(
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit,Warnings\n" +
        "ECB,EUR,JPY,2026-03-02,162.30,1,\nECB,EUR,USD,2026-03-02,1.0850,1,\n" +
        WARNED_CSV.split("\n").slice(1).join("\n"),
    );
    const json = await text("/v1/Banks/ECB/DailyRates.json?from=2026-03-02&to=2026-03-03");
    expect(json.body).toContain(`"warnings": {\n        "JPY": ${JSON.stringify(REASON)}\n      }\n    }\n  }\n}\n`);
    expect(json.body.match(/"warnings"/g)).toHaveLength(1);
  });

  it("a filtered Latest keeps the warnings of the kept currencies only", async () => {
    const jpy = await text("/v1/Banks/ECB/DailyRates/Latest.csv?currencies=JPY");
    expect(jpy.warnings).toBe("1");
    expect(jpy.body).toBe(WARNED_CSV.split("\n").slice(0, 2).join("\n") + "\n");
    const usd = await text("/v1/Banks/ECB/DailyRates/Latest.csv?currencies=USD");
    expect(usd.warnings).toBeNull();
    expect(usd.body).toBe(
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\nECB,EUR,USD,2026-03-03,1.0900,1\n",
    );
  });

  it("asOf: the warnings known then about the figures known then", async () => {
    const json = await text("/v1/Banks/ECB/DailyRates/Latest.json?asOf=2026-03-03T16:00:00Z");
    expect(json.warnings).toBe("1");
    expect(json.body).toContain(`"warnings": {\n        "JPY": ${JSON.stringify(REASON)}\n      }`);
    const before = await text("/v1/Banks/ECB/DailyRates/2026-03-02.csv?asOf=2026-03-03T16:00:00Z");
    expect(before.warnings).toBeNull();
  });

  it("asOf a range: flagged once the warning was known, not before", async () => {
    const range = "/v1/Banks/ECB/DailyRates.csv?from=2026-03-02&to=2026-03-03";
    const after = await text(`${range}&asOf=2026-03-03T16:00:00Z`);
    expect(after.warnings).toBe("1");
    expect(after.body).toBe((await text(range)).body);
    const before = await text(`${range}&asOf=2026-03-02T16:00:00Z`);
    expect(before.warnings).toBeNull();
    expect(before.body).toBe(
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\n" +
        "ECB,EUR,JPY,2026-03-02,162.30,1\nECB,EUR,USD,2026-03-02,1.0850,1\n",
    );
  });
});

describe("an answer without warnings is as it always was", () => {
  it("no member, no attribute, no column, no header", async () => {
    const json = await text("/v1/Banks/ECB/DailyRates/2026-03-02.json");
    expect(json.warnings).toBeNull();
    expect(json.body).toBe(`{
  "bankId": "ECB",
  "baseCurrency": "EUR",
  "quoteType": "Indirect",
  "rates": {
    "2026-03-02": {
      "JPY": {
        "rate": 162.30
      },
      "USD": {
        "rate": 1.0850
      }
    }
  }
}
`);
    const xml = await text("/v1/Banks/ECB/DailyRates/2026-03-02.xml");
    expect(xml.warnings).toBeNull();
    expect(xml.body).not.toContain("warning");
    const csv = await text("/v1/Banks/ECB/DailyRates/2026-03-02.csv");
    expect(csv.warnings).toBeNull();
    expect(csv.body).toBe(
      "BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\n" +
        "ECB,EUR,JPY,2026-03-02,162.30,1\nECB,EUR,USD,2026-03-02,1.0850,1\n",
    );
    const range = await get("/v1/Banks/ECB/DailyRates.xlsx?from=2026-03-01&to=2026-03-02");
    expect(range.headers.get("x-rate-warnings")).toBeNull();
    const wb = XLSX.read(Buffer.from(await range.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false, defval: "" });
    expect(rows[0]).toEqual(["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"]);
  });
});
