import { describe, expect, it } from "vitest";

import cbar from "../../adapters/CBAR.js";
import { HttpError } from "../../src/errors.js";
import { parseDocuments } from "../../src/ingest/ingest.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_0601 = "https://www.cbar.az/currencies/06.01.2026.xml";
const parse = (body: Buffer | string) => cbar.parse(Buffer.from(body), { url: URL_0601 });

/** A bulletin of `date` (DD.MM.YYYY) holding the given Valute elements. */
const bulletin = (date: string, ...valutes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<ValCurs Date="${date}" Name="AZN məzənnələri">\n` +
  `<ValType Type="Xarici valyutalar">\n${valutes.join("\n")}\n</ValType>\n</ValCurs>\n`;
const valute = (code: string, nominal: string, value: string) =>
  `<Valute Code="${code}"><Nominal>${nominal}</Nominal><Name>${nominal} x</Name><Value>${value}</Value></Valute>`;

describe("CBAR adapter", () => {
  it("reads every Valute of both ValTypes at the bulletin's date: per-100 as unitMultiplier, metals per ounce, SDR as XDR", async () => {
    expect(await recordsOf(parse(fixture("CBAR/bulletin.xml")))).toEqual([
      { effectiveDate: "2026-01-06", currency: "XAU", rate: "7050.1200" },
      { effectiveDate: "2026-01-06", currency: "USD", rate: "1.7" },
      { effectiveDate: "2026-01-06", currency: "JPY", rate: "1.0830", unitMultiplier: 2 },
      { effectiveDate: "2026-01-06", currency: "XDR", rate: "2.3290" },
    ]);
  });

  it("dates a weekend file by the bulletin it repeats, not by its URL", async () => {
    const saturday = cbar.parse(Buffer.from(bulletin("09.01.2026", valute("USD", "1", "1.7"))), {
      url: "https://www.cbar.az/currencies/10.01.2026.xml",
    });
    expect(await recordsOf(saturday)).toEqual([{ effectiveDate: "2026-01-09", currency: "USD", rate: "1.7" }]);
  });

  it("reads a bulletin without any Valute as no records", async () => {
    expect(await answerOf(parse(fixture("CBAR/empty.xml")))).toEqual({ records: [], held: [] });
  });

  it("publishes today's codes on old bulletins under the code of the day (BYR before 2016-07, TMM before 2009)", async () => {
    const old = bulletin("04.01.2008", valute("BYN", "100", "0.0364"), valute("TMT", "100", "0.0165"));
    const later = bulletin("01.07.2016", valute("BYN", "1", "0.7850"), valute("TMT", "1", "0.4480"));
    expect(await recordsOf(parse(old))).toEqual([
      { effectiveDate: "2008-01-04", currency: "BYR", rate: "0.0364", unitMultiplier: 2 },
      { effectiveDate: "2008-01-04", currency: "TMM", rate: "0.0165", unitMultiplier: 2 },
    ]);
    expect((await recordsOf(parse(later))).map((r) => r.currency)).toEqual(["BYN", "TMT"]);
  });

  it("holds every row of a bulletin from before the 2006 redenomination (old manats labelled AZN)", async () => {
    const answer = await answerOf(parse(bulletin("30.12.2005", valute("USD", "1", "4591.0000"))));
    expect(answer.records).toEqual([]);
    expect(answer.held).toEqual([
      expect.objectContaining({ kind: "bad-row", currency: "USD", rate: "4591.0000", effectiveDate: "30.12.2005" }),
    ]);
    expect(answer.held[0]!.reason).toMatch(/old manats/);
  });

  itRefusesWhole("CBAR", parse, [
    ["truncated XML", '<?xml version="1.0"?><ValCurs Date="06.01.2026"><ValType Type="x"><Valute Code="USD">'],
    [
      "another bank's XML (the ECB's)",
      '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="x"><Cube/></gesmes:Envelope>',
    ],
    ["a ValCurs without a Date", '<?xml version="1.0"?><ValCurs Name="AZN"></ValCurs>'],
    ["a ValCurs whose Date does not exist", '<?xml version="1.0"?><ValCurs Date="31.02.2026"></ValCurs>'],
  ]);

  const good = valute("USD", "1", "1.7");
  it.each([
    ["an unknown code", valute("ZZZ", "1", "0.5"), { kind: "unknown-currency", currency: "ZZZ" }],
    ["a Nominal that is not a number", valute("RUB", "yüz", "2.0186"), { kind: "unknown-unit", currency: "RUB" }],
    ["a Value that is not a number", valute("EUR", "1", "-"), { kind: "bad-rate", rate: "-" }],
  ] as const)("holds %s and takes the other Valutes", async (_what, bad, held) => {
    await expectOneHeld(parse(bulletin("06.01.2026", good, bad)), {
      records: [{ effectiveDate: "2026-01-06", currency: "USD", rate: "1.7" }],
      held,
    });
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded bulletin of 2 October 2026 (values read off the file by hand)",
    async () => {
      const r = recording("CBAR/001.xml");
      const records = await recordsOf(cbar.parse(r.body, { url: r.url }));
      expect(records).toHaveLength(42);
      expect(new Set(records.map((x) => x.effectiveDate))).toEqual(new Set(["2026-10-02"]));
      const find = (currency: string) => records.find((x) => x.currency === currency);
      expect(find("USD")).toEqual({ effectiveDate: "2026-10-02", currency: "USD", rate: "1.7" });
      expect(find("KRW")).toEqual({ effectiveDate: "2026-10-02", currency: "KRW", rate: "0.1253", unitMultiplier: 2 });
      expect(find("XAU")).toEqual({ effectiveDate: "2026-10-02", currency: "XAU", rate: "7114.3555" });
      expect(find("XDR")).toEqual({ effectiveDate: "2026-10-02", currency: "XDR", rate: "2.3051" });
      expect(find("CAD")).toEqual({ effectiveDate: "2026-10-02", currency: "CAD", rate: "1.196" });
    },
  );

  it("asks for every calendar day of a range and skips the days without a bulletin (404)", async () => {
    const http = fakeHttp((req) => {
      if (req.url.includes("/04.01.2026.")) throw new HttpError(`${req.url}: HTTP 404`, 404);
      return { body: bulletin("02.01.2026", good), contentType: "application/xml" };
    });
    const docs = await cbar.fetch({ kind: "range", from: "2026-01-02", to: "2026-01-05" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.cbar.az/currencies/02.01.2026.xml",
      "https://www.cbar.az/currencies/03.01.2026.xml",
      "https://www.cbar.az/currencies/04.01.2026.xml",
      "https://www.cbar.az/currencies/05.01.2026.xml",
    ]);
    expect(docs).toHaveLength(3);
    // A window of 404s only (a future date, holidays): no answer to read, nothing for ingest to refuse.
    const none = fakeHttp((req) => {
      throw new HttpError(`${req.url}: HTTP 404`, 404);
    });
    const empty = await cbar.fetch({ kind: "range", from: "2026-01-03", to: "2026-01-04" }, { http: none, env: {} });
    expect(empty).toEqual([]);
    expect(await parseDocuments(cbar, empty)).toEqual([]);
  });

  it("does not swallow other HTTP failures", async () => {
    const http = fakeHttp((req) => {
      throw new HttpError(`${req.url}: HTTP 500 after 5 tries`, 500);
    });
    await expect(
      cbar.fetch({ kind: "range", from: "2026-01-02", to: "2026-01-02" }, { http, env: {} }),
    ).rejects.toThrow(/HTTP 500/);
  });

  it("asks for the last four days up to today for the latest", async () => {
    const http = fakeHttp(() => ({ body: bulletin("02.01.2026", good) }));
    await cbar.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen).toHaveLength(4);
    expect(http.seen.every((r) => /^https:\/\/www\.cbar\.az\/currencies\/\d\d\.\d\d\.\d{4}\.xml$/.test(r.url))).toBe(
      true,
    );
  });
});
