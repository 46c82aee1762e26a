import { describe, expect, it } from "vitest";

import brb, { BRB_ALIASES, brbCurrency, brbFileDate } from "../../adapters/BRB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { pdfOf } from "../support/pdf.js";
import type { RateRecord } from "../../src/types.js";

const INDEX = "https://www.brb.bi/en/affichagetoustauxchange";
const pdfUrl = (ddmmyyyy: string) =>
  `https://www.brb.bi/sites/default/files/${ddmmyyyy.slice(6)}-${ddmmyyyy.slice(3, 5)}/Cours%20de%20change%20du%20${ddmmyyyy}.pdf`;
const parse = (body: Buffer | string, url = pdfUrl("20-05-2026")) => brb.parse(Buffer.from(body), { url });

type Row = [name: string, ...figures: string[]];
/** A bulletin in the bank's layout: the date line, then for each table its header line and rows. */
function bulletin(dated: string, ...tables: Row[][]): Buffer {
  const runs: Array<[number, number, string]> = [
    [54, 741, "BANQUE DE LA REPUBLIQUE"],
    [218, 665, dated],
  ];
  let y = 634;
  for (const rows of tables) {
    runs.push([60, y, "MONNAIES ETRANGERES"], [231, y, "Acheteur"], [310, y, "Cours moyen jour"], [440, y, "Vendeur"]);
    for (const [name, ...figures] of rows) {
      y -= 15;
      runs.push([54, y, name]);
      figures.forEach((f, i) => runs.push([[247, 351, 455][i]!, y, f]));
    }
    y -= 30;
  }
  runs.push([194, y, "* Monnaies non admises au change manuel"]);
  return pdfOf(runs);
}
const USA = 'name "Dollar USA" resolved by territory US';
const usd: Row = ["1 Dollar USA", "2965,9907", "2989,9100", "3013,8293"];
const ugx: Row = ["100 Shilling Ougandais*", "78,69", "79,33", "79,96"];
const taken: RateRecord[] = [
  { effectiveDate: "2026-05-20", currency: "USD", rate: "2989.9100", derivation: USA },
  { effectiveDate: "2026-05-20", currency: "UGX", rate: "79.33", unitMultiplier: 2 },
];

describe("BRB adapter", () => {
  it("takes the Cours moyen jour column of the bulletin, French names mapped, asterisks dropped, per-N units", async () => {
    expect(await recordsOf(parse(fixture("BRB/cours-20-05-2026.pdf")))).toEqual([
      { effectiveDate: "2026-05-20", currency: "USD", rate: "2989.9100", derivation: USA },
      { effectiveDate: "2026-05-20", currency: "SEK", rate: "317.7018" },
      { effectiveDate: "2026-05-20", currency: "XDR", rate: "4087.0963" },
      {
        effectiveDate: "2026-05-20",
        currency: "CNY",
        rate: "439.1464",
        derivation: 'name "Yuan Renmimbi*" resolved by spelling, 1 edit from "Yuan Renminbi"',
      },
      { effectiveDate: "2026-05-20", currency: "UGX", rate: "79.33", unitMultiplier: 2 },
    ]);
  });

  it("never parses the index pages (navigation), only the bulletins", () => {
    expect(brb.navigation?.test(INDEX)).toBe(true);
    expect(brb.navigation?.test(`${INDEX}?page=3`)).toBe(true);
    expect(brb.navigation?.test(pdfUrl("20-05-2026"))).toBe(false);
  });

  it("names currencies by ICU's French names first, the bulletin's own spellings after, and reads file-name dates", () => {
    const code = (name: string) => brbCurrency(name, "2026-05-20");
    expect(code("Couronne Norvegienne")).toEqual({ currency: "NOK" });
    expect(code("Dinar Kowetien*")).toEqual({
      currency: "KWD",
      derivation: 'name "Dinar Kowetien*" resolved by spelling, 1 edit from "dinar koweïtien"',
    });
    expect(code("Rand Sud-Africain*")).toEqual({ currency: "ZAR" });
    expect(code("Dollar USA")).toEqual({ currency: "USD", derivation: 'name "Dollar USA" resolved by territory US' });
    expect(code("DTS*")).toEqual({ currency: "XDR" });
    expect(Object.keys(BRB_ALIASES)).toEqual(["dts"]);
    expect(brbFileDate(pdfUrl("21-05-2026"))).toBe("2026-05-21");
    expect(brbFileDate("https://www.brb.bi/sites/default/files/2026-05/rapport.pdf")).toBeUndefined();
  });

  itRefusesWhole("BRB", (body) => parse(body), [
    ["a truncated PDF", fixture("BRB/cours-20-05-2026.pdf").subarray(0, 600)],
    ["the index page where a bulletin was expected", fixture("BRB/index-0.html")],
    ["another bank's body", '{"rates":[]}'],
    ["a missing Vendeur label", fixture("BRB/no-vendeur.pdf")],
    ["a bulletin without its date line", bulletin("COURS DU JOUR", [usd])],
    ["a bulletin without currency rows", bulletin("EN DATE DU 20 MAI 2026", [])],
  ]);

  it("refuses a bulletin whose file name says another day", async () => {
    await expect(async () => parse(fixture("BRB/cours-20-05-2026.pdf"), pdfUrl("21-05-2026"))).rejects.toThrow(
      /^BRB: the bulletin is dated 2026-05-20 but its file name says 2026-05-21/,
    );
  });

  it.each([
    [
      "a currency name that fits several currencies",
      ["1 Dollar", "1", "2", "3"],
      { kind: "unknown-currency", currency: "Dollar" },
    ],
    [
      "a figure that is not a number",
      ["1 Euro", "3440,1", "3475.20,65", "3510,3"],
      { kind: "bad-rate", rate: "3475.20,65" },
    ],
    ["a line with two figures", ["1 Euro", "3440,1", "3510,3"], { kind: "bad-row" }],
  ] as const)("holds a line with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(bulletin("EN DATE DU 20 MAI 2026", [usd, [...bad], ugx])), {
      records: taken,
      held: { ...held, source: `page 1 line "${bad.join(" ")}"` },
    });
  });

  it("reads the recorded fixture's only line, a name no table lists, as a misspelling of ICU's French name", async () => {
    expect(await answerOf(parse(fixture("BRB/unknown-name.pdf")))).toMatchObject({
      records: [
        {
          currency: "BSD",
          derivation: 'name "Dollar Bahamien" resolved by spelling, 1 edit from "dollar bahaméen"',
        },
      ],
      held: [],
    });
  });

  it("holds every line of a bulletin dated a day that does not exist", async () => {
    const answer = await answerOf(parse(bulletin("EN DATE DU 31 JUIN 2026", [usd, ugx]), pdfUrl("30-06-2026")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.effectiveDate])).toEqual([
      ["bad-date", "EN DATE DU 31 JUIN 2026"],
      ["bad-date", "EN DATE DU 31 JUIN 2026"],
    ]);
  });

  it("reads the lines under every header line of the bulletin", async () => {
    const chf: Row = ["1 Franc Suisse", "3300,0", "3333,3333", "3366,6"];
    expect(await recordsOf(parse(bulletin("EN DATE DU 20 MAI 2026", [usd], [ugx, chf])))).toEqual([
      ...taken,
      { effectiveDate: "2026-05-20", currency: "CHF", rate: "3333.3333" },
    ]);
  });

  it("walks the index (marked navigation) until it reaches before the range, then fetches each bulletin in it", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith(".pdf")
        ? "%PDF-1.4"
        : fixture(req.url.endsWith("page=1") ? "BRB/index-1.html" : "BRB/index-0.html"),
    }));
    const docs = await brb.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    await brb.fetch({ kind: "range", from: "2026-05-18", to: "2026-05-21" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${INDEX}`,
      `GET ${pdfUrl("22-05-2026")}`,
      `GET ${INDEX}`,
      `GET ${INDEX}?page=1`,
      `GET ${pdfUrl("18-05-2026")}`,
      `GET ${pdfUrl("19-05-2026")}`,
      `GET ${pdfUrl("20-05-2026")}`,
      `GET ${pdfUrl("21-05-2026")}`,
    ]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded bulletins exactly (values read off the PDFs by hand)",
    async () => {
      const r2 = recording("BRB/002.pdf");
      const day1 = await recordsOf(brb.parse(r2.body, { url: r2.url }));
      expect(day1).toHaveLength(19);
      expect(day1[0]).toEqual({ effectiveDate: "2026-05-20", currency: "CAD", rate: "2172.8650" });
      expect(day1.find((x) => x.currency === "USD")).toEqual({
        effectiveDate: "2026-05-20",
        currency: "USD",
        rate: "2989.9100",
        derivation: USA,
      });
      expect(day1.find((x) => x.currency === "XDR")).toEqual({
        effectiveDate: "2026-05-20",
        currency: "XDR",
        rate: "4087.0963",
      });
      expect(day1.at(-1)).toEqual({ effectiveDate: "2026-05-20", currency: "SAR", rate: "797.3093" });
      const r3 = recording("BRB/003.pdf");
      const day2 = await recordsOf(brb.parse(r3.body, { url: r3.url }));
      expect(day2.find((x) => x.currency === "EUR")).toEqual({
        effectiveDate: "2026-05-21",
        currency: "EUR",
        rate: "3475.2065",
      });
      expect(brb.navigation?.test(recording("BRB/001.html").url)).toBe(true);
    },
  );
});
