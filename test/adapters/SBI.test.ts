import { describe, expect, it } from "vitest";

import sbi from "../../adapters/SBI.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://sedlabanki.is/xmltimeseries/Default.aspx";
const parse = (body: Buffer | string) =>
  sbi.parse(Buffer.from(body), { url: `${ENDPOINT}?DagsFra=2026-03-24&DagsTil=2026-03-25&GroupID=9&Type=xml` });

describe("SBI adapter", () => {
  it("takes the middle-rate series by id, reads month-first dates, keeps the digits and skips buying rates and empty values", async () => {
    expect(await recordsOf(parse(fixture("SBI/group9.xml")))).toEqual([
      { effectiveDate: "2026-03-24", currency: "USD", rate: "124.440000" },
      { effectiveDate: "2026-03-25", currency: "USD", rate: "123.710000" },
      { effectiveDate: "2025-12-31", currency: "JPY", rate: "0.783000" },
      { effectiveDate: "2026-03-25", currency: "XDR", rate: "168.700000" },
    ]);
  });

  itRefusesWhole("SBI", parse, [
    ["the bank's HTML page", "<!DOCTYPE html><html><body>Villa</body></html>"],
    [
      "truncated XML",
      '<?xml version="1.0"  encoding="utf-8"?><Group ID="9"><TimeSeries ID="4055"><Description><![CDATA[Bandaríkjadalur, skráð miðgengi.]]></Description><TimeSeriesData><Entry><Date>3/24/2026',
    ],
    [
      "another bank's body (CBR)",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>76,5</Value></Valute></ValCurs>',
    ],
    [
      "a mapped id that is not a middle rate",
      '<Group ID="9"><TimeSeries ID="4055"><Description><![CDATA[Bandaríkjadalur, skráð sölugengi.]]></Description><TimeSeriesData><Entry><Date>3/24/2026 12:00:00 AM</Date><Value>124.64</Value></Entry></TimeSeriesData></TimeSeries></Group>',
    ],
  ]);

  const usd = (entry: string) =>
    `<Group ID="9"><TimeSeries ID="4055"><Description><![CDATA[Bandaríkjadalur, skráð miðgengi.]]></Description><TimeSeriesData>` +
    `<Entry><Date>3/24/2026 12:00:00 AM</Date><Value>124.440000</Value></Entry>${entry}</TimeSeriesData></TimeSeries>` +
    `<TimeSeries ID="4064"><Description><![CDATA[Evra, skráð miðgengi.]]></Description><TimeSeriesData>` +
    `<Entry><Date>3/24/2026 12:00:00 AM</Date><Value>144.000000</Value></Entry></TimeSeriesData></TimeSeries></Group>`;
  const taken = [
    { effectiveDate: "2026-03-24", currency: "USD", rate: "124.440000" },
    { effectiveDate: "2026-03-24", currency: "EUR", rate: "144.000000" },
  ];
  it.each([
    [
      "a day-first date",
      "<Entry><Date>25/3/2026 12:00:00 AM</Date><Value>123.71</Value></Entry>",
      { kind: "bad-date", effectiveDate: "25/3/2026 12:00:00 AM", rate: "123.71" },
    ],
    [
      "a decimal comma",
      "<Entry><Date>3/25/2026 12:00:00 AM</Date><Value>123,71</Value></Entry>",
      { kind: "bad-rate", effectiveDate: "3/25/2026 12:00:00 AM", rate: "123,71" },
    ],
  ] as const)("holds %s and takes the other entries of every series", async (_what, entry, held) => {
    await expectOneHeld(parse(usd(entry)), {
      records: taken,
      held: { ...held, source: '<TimeSeries ID="4055"> entry 2', currency: "USD" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const g9 = recording("SBI/001.xml");
    const r9 = await recordsOf(sbi.parse(g9.body, { url: g9.url }));
    expect(r9).toHaveLength(20);
    expect(r9.find((x) => x.currency === "EUR" && x.effectiveDate === "2026-03-24")).toEqual({
      effectiveDate: "2026-03-24",
      currency: "EUR",
      rate: "144.000000",
    });
    expect(r9.find((x) => x.currency === "JPY" && x.effectiveDate === "2026-03-25")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "JPY",
      rate: "0.778200",
    });
    const g7 = recording("SBI/002.xml");
    const r7 = await recordsOf(sbi.parse(g7.body, { url: g7.url }));
    expect(r7).toHaveLength(44);
    expect(r7.find((x) => x.currency === "KWD" && x.effectiveDate === "2026-03-25")).toEqual({
      effectiveDate: "2026-03-25",
      currency: "KWD",
      rate: "403.550000",
    });
    expect(r7.find((x) => x.currency === "NGN" && x.effectiveDate === "2026-03-24")).toEqual({
      effectiveDate: "2026-03-24",
      currency: "NGN",
      rate: "0.089900",
    });
  });

  it("asks groups 9 and 7 for the range", async () => {
    const http = fakeHttp(() => ({ body: '<Group ID="9"></Group>' }));
    await sbi.fetch({ kind: "range", from: "2026-03-24", to: "2026-03-25" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${ENDPOINT}?DagsFra=2026-03-24&DagsTil=2026-03-25&GroupID=9&Type=xml`,
      `${ENDPOINT}?DagsFra=2026-03-24&DagsTil=2026-03-25&GroupID=7&Type=xml`,
    ]);
    const latest = fakeHttp(() => ({ body: '<Group ID="9"></Group>' }));
    await sbi.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.map((r) => r.url.replace(/\d{4}-\d{2}-\d{2}/g, "D"))).toEqual([
      `${ENDPOINT}?DagsFra=D&DagsTil=D&GroupID=9&Type=xml`,
      `${ENDPOINT}?DagsFra=D&DagsTil=D&GroupID=7&Type=xml`,
    ]);
  });
});
