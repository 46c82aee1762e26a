import { afterEach, describe, expect, it, vi } from "vitest";

import bceao, { BCEAO_CURRENCY_NAMES, bceaoCurrency } from "../../adapters/BCEAO.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15";
const parse = (body: Buffer | string) => bceao.parse(Buffer.from(body), { url: URL });

describe("BCEAO adapter", () => {
  afterEach(() => vi.useRealTimers());

  it("reads French names (escaped or real UTF-8) and French numbers exactly, skipping placeholders", async () => {
    expect(await recordsOf(parse(fixture("BCEAO/sunday.html")))).toEqual([
      { effectiveDate: "2026-03-15", currency: "EUR", rate: "655.9570" },
      { effectiveDate: "2026-03-15", currency: "SEK", rate: "59.4700" },
      { effectiveDate: "2026-03-15", currency: "NZD", rate: "347.1400" },
      { effectiveDate: "2026-03-15", currency: "KRW", rate: "0.4100" },
      { effectiveDate: "2026-03-15", currency: "KWD", rate: "1953.0200" },
    ]);
  });

  it("reads a holiday page (heading only) as no records", async () => {
    expect(await recordsOf(parse(fixture("BCEAO/holiday.html")))).toEqual([]);
  });

  it("reads French names by ICU exactly, then by rule saying how, then by the bank's own spellings", () => {
    const on = "2026-03-16";
    expect(bceaoCurrency("Couronne  Norvégienne ", on)).toEqual({ currency: "NOK" });
    expect(bceaoCurrency("Dollar néo-zélandais", on)).toEqual({ currency: "NZD" });
    expect(bceaoCurrency("Nouveau Shekel", on)).toEqual({ currency: "ILS" });
    expect(bceaoCurrency("Couronne thèque", on)).toEqual({
      currency: "CZK",
      derivation: 'name "Couronne thèque" resolved by spelling, 1 edit from "couronne tchèque"',
    });
    expect(bceaoCurrency("Dollar us", on)).toEqual({
      currency: "USD",
      derivation: 'name "Dollar us" resolved by normalisation as "US Dollar"',
    });
    expect(bceaoCurrency("Dollar des Bahamas", on)).toEqual({
      currency: "BSD",
      derivation: 'name "Dollar des Bahamas" resolved by territory BS',
    });
    expect(() => bceaoCurrency("Dollar", on)).toThrow(/^BCEAO: currency "Dollar" fits \d+ currencies/);
    expect(Object.values(BCEAO_CURRENCY_NAMES).every((c) => /^[A-Z]{3}$/.test(c) && c !== "XOF")).toBe(true);
  });

  itRefusesWhole("BCEAO", parse, [
    [
      "a truncated table",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tbody><tr><th>Devise</th><th>CFA</th></tr><tr><td>Euro</td><td>655,9570</td>",
    ],
    ["another bank's body", '<?xml version="1.0"?><ValCurs Date="16.03.2026"><Valute/></ValCurs>'],
    [
      "a missing column label",
      "<h2>Cours des devises du lundi 16 mars 2026</h2><table><tr><th>Devise</th><th>Cours</th></tr><tr><td>Euro</td><td>655,9570</td></tr></table>",
    ],
    [
      "a heading without a date",
      "<h2>Cours des devises</h2><table><tr><th>Devise</th><th>CFA</th></tr><tr><td>Euro</td><td>655,9570</td></tr></table>",
    ],
  ]);

  const page = (bad: string, heading = "Cours des devises du lundi 16 mars 2026") =>
    `<h2>${heading}</h2><table><tbody><tr><th>Devise</th><th>CFA</th></tr>` +
    `<tr><td>Euro</td><td>655,9570</td></tr>${bad}<tr><td>Dinar Koweitien</td><td>1.953,0200</td></tr></tbody></table>`;
  const taken = [
    { effectiveDate: "2026-03-16", currency: "EUR", rate: "655.9570" },
    { effectiveDate: "2026-03-16", currency: "KWD", rate: "1953.0200" },
  ];
  it.each([
    [
      "a currency name that fits several currencies",
      "<tr><td>Dollar</td><td>605,5200</td></tr>",
      { kind: "unknown-currency", currency: "Dollar" },
    ],
    ["a bad number", "<tr><td>Dollar us</td><td>605;5200</td></tr>", { kind: "bad-rate", rate: "605;5200" }],
    [
      "a row of three cells",
      "<tr><td>Dollar us</td><td>605,5200</td><td>x</td></tr>",
      { kind: "bad-row", currency: "Dollar us" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(page(bad)), { records: taken, held: { ...held, source: "table 1 row 2" } });
  });

  it("reads the hand-written page's name, which no table lists, by its territory", async () => {
    expect(await answerOf(parse(fixture("BCEAO/unknown-name.html")))).toEqual({
      records: [
        {
          effectiveDate: "2026-03-16",
          currency: "BSD",
          rate: "605.5200",
          derivation: 'name "Dollar des Bahamas" resolved by territory BS',
        },
      ],
      held: [],
    });
  });

  it("holds every row of a page whose heading names a day that does not exist", async () => {
    const answer = await answerOf(parse(page("", "Cours des devises du lundi 31 avril 2026")));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency])).toEqual([
      ["bad-date", "Euro"],
      ["bad-date", "Dinar Koweitien"],
    ]);
  });

  it("reads every table of a page", async () => {
    const two =
      page("") +
      "<table><tbody><tr><th>Devise</th><th>CFA</th></tr><tr><td>Ryal Saudien</td><td>161,4700</td></tr></tbody></table>";
    expect(await recordsOf(parse(two))).toEqual([
      ...taken,
      {
        effectiveDate: "2026-03-16",
        currency: "SAR",
        rate: "161.4700",
        derivation: 'name "Ryal Saudien" resolved by spelling, 2 edits from "riyal saoudien"',
      },
    ]);
  });

  it("asks one page per day except Saturday, for a range and for the last three days", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-16T12:00:00Z"));
    const http = fakeHttp(() => ({ body: "<h2>Cours des devises du lundi 16 mars 2026</h2>" }));
    await bceao.fetch({ kind: "latest" }, { http, env: {} });
    await bceao.fetch({ kind: "range", from: "2026-03-13", to: "2026-03-16" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-16",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-13",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15",
      "GET https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-16",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the files by hand)", async () => {
    const r1 = recording("BCEAO/001.html");
    const day1 = await recordsOf(bceao.parse(r1.body, { url: r1.url }));
    expect(day1).toHaveLength(27);
    expect(day1[0]).toEqual({ effectiveDate: "2026-03-16", currency: "EUR", rate: "655.9570" });
    expect(day1.find((x) => x.currency === "SEK")).toEqual({
      effectiveDate: "2026-03-16",
      currency: "SEK",
      rate: "59.4700",
    });
    expect(day1.find((x) => x.currency === "KWD")).toEqual({
      effectiveDate: "2026-03-16",
      currency: "KWD",
      rate: "1953.0200",
    });
    const r3 = recording("BCEAO/003.html");
    const day3 = await recordsOf(bceao.parse(r3.body, { url: r3.url }));
    expect(day3.find((x) => x.currency === "USD")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "USD",
      rate: "606.8800",
      derivation: 'name "Dollar us" resolved by normalisation as "US Dollar"',
    });
    expect(day3.find((x) => x.currency === "CZK")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "CZK",
      rate: "26.2300",
      derivation: 'name "Couronne thèque" resolved by spelling, 1 edit from "couronne tchèque"',
    });
  });
});
