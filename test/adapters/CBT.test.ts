import { describe, expect, it } from "vitest";

import cbt, { cbtUrl } from "../../adapters/CBT.js";
import { HttpError } from "../../src/errors.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://cbt.tm/kurs/2026/20052026.xml";
const parse = (body: Buffer | string, url = URL) => cbt.parse(Buffer.from(body), { url });
const file = (date: string, rates: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<cbt_currency_rate name="CBT Currency XML">\r\n\t<date>${date}</date>${rates}</cbt_currency_rate>`;
const rate = (code: string, multiplier: string, tmt: string) =>
  `<rate code="${code}"><name>X</name><rate_usd>1</rate_usd><multiplier>${multiplier}</multiplier><rate_tmt>${tmt}</rate_tmt><checksum>0</checksum></rate>`;

describe("CBT adapter", () => {
  it("reads TMT per multiplier units, kept as published with the unit's power of ten", async () => {
    expect(await recordsOf(parse(fixture("CBT/rates-2026.xml")))).toEqual([
      { effectiveDate: "2026-05-20", currency: "USD", rate: "3.5" },
      { effectiveDate: "2026-05-20", currency: "EUR", rate: "4.0635" },
      { effectiveDate: "2026-05-20", currency: "IRR", rate: "0.0270", unitMultiplier: 4 },
      { effectiveDate: "2026-05-20", currency: "JPY", rate: "2.3256", unitMultiplier: 2 },
    ]);
  });

  it("reads the ISO <date> of the 2020-2023 files", async () => {
    expect(
      await recordsOf(parse(file("2021-05-20", rate("GBP", "1", "4.9518")), "https://cbt.tm/kurs/2021/20052021.xml")),
    ).toEqual([{ effectiveDate: "2021-05-20", currency: "GBP", rate: "4.9518" }]);
  });

  it.each([
    ["a figure that is not a number", rate("EUR", "1", "4,06"), "bad-rate"],
    ["a multiplier that is not a whole number", rate("EUR", "0.5", "4.0635"), "unknown-unit"],
    ["a code that is not ISO 4217", rate("EUX", "1", "4.0635"), "unknown-currency"],
  ] as const)("holds %s and takes the other rates", async (_what, bad, kind) => {
    await expectOneHeld(parse(file("20.05.2026", rate("USD", "1", "3.5") + bad)), {
      records: [{ effectiveDate: "2026-05-20", currency: "USD", rate: "3.5" }],
      held: { kind, source: "rate 2" },
    });
  });

  itRefusesWhole("CBT", parse, [
    ["a file without <date>", file("", rate("USD", "1", "3.5"))],
    ["a date that does not exist", file("31.04.2026", rate("USD", "1", "3.5"))],
    ["a file without rates", file("20.05.2026", "")],
    ["the file of another date than the URL's", file("21.05.2026", rate("USD", "1", "3.5"))],
    ["another bank's XML", '<?xml version="1.0"?><ValCurs Date="20.05.2026"><Valute/></ValCurs>'],
    ["truncated XML", file("20.05.2026", rate("USD", "1", "3.5")).slice(0, 150)],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const a = recording("CBT/001.xml");
    const first = await recordsOf(cbt.parse(a.body, { url: a.url }));
    expect(first).toHaveLength(48);
    const on = (records: typeof first, currency: string) => records.find((r) => r.currency === currency);
    expect(on(first, "AED")).toEqual({ effectiveDate: "2026-05-20", currency: "AED", rate: "0.9529" });
    expect(on(first, "IRR")).toEqual({
      effectiveDate: "2026-05-20",
      currency: "IRR",
      rate: "0.0265",
      unitMultiplier: 4,
    });
    expect(on(first, "EUR")).toEqual({ effectiveDate: "2026-05-20", currency: "EUR", rate: "4.0649" });
    const b = recording("CBT/002.xml");
    const second = await recordsOf(cbt.parse(b.body, { url: b.url }));
    expect(on(second, "KRW")).toEqual({
      effectiveDate: "2026-05-21",
      currency: "KRW",
      rate: "2.3242",
      unitMultiplier: 3,
    });
    expect(on(second, "XDR")).toEqual({ effectiveDate: "2026-05-21", currency: "XDR", rate: "4.7844" });
  });

  it("asks one file per value date from Monday to Saturday, a 404 being no file", async () => {
    const http = fakeHttp((req) => {
      if (req.url.endsWith("23052026.xml")) throw new HttpError(`${req.url}: HTTP 404`, 404);
      return { body: "" };
    });
    // 2026-05-22 is a Friday; the 24th a Sunday.
    const docs = await cbt.fetch({ kind: "range", from: "2026-05-22", to: "2026-05-25" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://cbt.tm/kurs/2026/22052026.xml",
      "https://cbt.tm/kurs/2026/23052026.xml",
      "https://cbt.tm/kurs/2026/25052026.xml",
    ]);
    expect(docs).toHaveLength(2);
    expect(cbtUrl("2020-04-17")).toBe("https://cbt.tm/kurs/2020/17042020.xml");
  });

  it("passes on any other HTTP error", async () => {
    const http = fakeHttp(() => {
      throw new HttpError("HTTP 403", 403);
    });
    await expect(cbt.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/403/);
  });
});
