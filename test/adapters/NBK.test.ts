import { describe, expect, it } from "vitest";

import nbk from "../../adapters/NBK.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://nationalbank.kz/rss/get_rates.cfm";
const parse = (body: Buffer | string) => nbk.parse(Buffer.from(body), { url: `${ENDPOINT}?fdate=01.04.2026` });
const wrap = (items: string, date = "01.04.2026") =>
  `<?xml version="1.0" encoding="utf-8"?><rates><date>${date}</date>${items}</rates>`;

describe("NBK adapter", () => {
  it("reads <description> as the rate and <quant> as the unit, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("NBK/get_rates.xml")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "AMD", rate: "12.72", unitMultiplier: 1 },
      { effectiveDate: "2026-04-01", currency: "IRR", rate: "0.4", unitMultiplier: 3 },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "478.70" },
      { effectiveDate: "2026-04-01", currency: "XDR", rate: "650.07" },
    ]);
  });

  itRefusesWhole("NBK", parse, [
    [
      "truncated XML",
      '<?xml version="1.0" encoding="utf-8"?><rates><date>01.04.2026</date><item><title>USD</title><description>478.7',
    ],
    [
      "another bank's body (CBR)",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>76,5</Value></Valute></ValCurs>',
    ],
  ]);

  const item = (title: string, description: string, quant = "<quant>1</quant>") =>
    `<item><title>${title}</title><description>${description}</description>${quant}</item>`;
  const good = [item("USD", "478.70"), item("KRW", "31.29", "<quant>100</quant>")];
  it.each([
    ["a decimal comma", item("EUR", "518,30"), { kind: "bad-rate", rate: "518,30" }],
    ["a missing quant", item("EUR", "518.30", ""), { kind: "unknown-unit" }],
    ["a title that is no currency code", item("ЕВРО", "518.30"), { kind: "unknown-currency", currency: "ЕВРО" }],
  ] as const)("holds %s and takes the other items", async (_what, bad, held) => {
    await expectOneHeld(parse(wrap(good[0] + bad + good[1])), {
      records: [
        { effectiveDate: "2026-04-01", currency: "USD", rate: "478.70" },
        { effectiveDate: "2026-04-01", currency: "KRW", rate: "31.29", unitMultiplier: 2 },
      ],
      held: { ...held, source: "item 2" },
    });
  });

  it("holds every item of a list whose date is not a real DD.MM.YYYY day", async () => {
    const answer = await answerOf(parse(wrap(good.join(""), "2026-04-01")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate, h.currency])).toEqual([
      ["bad-date", "2026-04-01", "USD"],
      ["bad-date", "2026-04-01", "KRW"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("NBK/001.xml");
    const records = await recordsOf(nbk.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(39);
    expect(records.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "USD",
      rate: "478.77",
    });
    expect(records.find((x) => x.currency === "KRW")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "KRW",
      rate: "31.29",
      unitMultiplier: 2,
    });
    expect(records.find((x) => x.currency === "JPY")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "JPY",
      rate: "3",
    });
    const r2 = recording("NBK/002.xml");
    expect((await recordsOf(nbk.parse(r2.body, { url: r2.url })))[0]!.effectiveDate).toBe("2026-04-02");
  });

  it("asks one DD.MM.YYYY date per weekday of a range, and up to three recent weekdays for the latest", async () => {
    const http = fakeHttp(() => ({ body: wrap("") }));
    await nbk.fetch({ kind: "range", from: "2026-04-03", to: "2026-04-06" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${ENDPOINT}?fdate=03.04.2026`, `${ENDPOINT}?fdate=06.04.2026`]);
    const latest = fakeHttp(() => ({ body: wrap("") }));
    await nbk.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.length).toBeGreaterThanOrEqual(2);
    for (const r of latest.seen) expect(r.url).toMatch(/get_rates\.cfm\?fdate=\d\d\.\d\d\.\d{4}$/);
  });
});
