import { describe, expect, it } from "vitest";

import boe, { BOE_SERIES } from "../../adapters/BOE.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes";
const parse = (body: Buffer | string) => boe.parse(Buffer.from(body), { url: URL });

describe("BOE adapter", () => {
  it("maps series codes to currencies, keeps the digits and skips empty cells", async () => {
    expect(await recordsOf(parse(fixture("BOE/spot.csv")))).toEqual([
      { effectiveDate: "2026-03-17", currency: "USD", rate: "1.3343" },
      { effectiveDate: "2026-03-17", currency: "EUR", rate: "1.1577" },
      { effectiveDate: "2026-03-17", currency: "JPY", rate: "212.1937" },
      { effectiveDate: "2026-03-17", currency: "KRW", rate: "1986.5526" },
      { effectiveDate: "2026-03-17", currency: "RON", rate: "5.8963" },
      { effectiveDate: "2026-03-18", currency: "USD", rate: "1.3320" },
      { effectiveDate: "2026-03-18", currency: "JPY", rate: "212.4739" },
      { effectiveDate: "2026-03-18", currency: "KRW", rate: "1998.788" },
      { effectiveDate: "2026-03-18", currency: "RON", rate: "5.8927" },
    ]);
  });

  it("knows the 26 series, each to a distinct currency", () => {
    expect(Object.keys(BOE_SERIES)).toHaveLength(26);
    expect(new Set(Object.values(BOE_SERIES)).size).toBe(26);
    expect([
      BOE_SERIES.XUDLBK25,
      BOE_SERIES.XUDLBK33,
      BOE_SERIES.XUDLBK78,
      BOE_SERIES.XUDLBK95,
      BOE_SERIES.XUDLBK97,
    ]).toEqual(["CZK", "HUF", "ILS", "TRY", "INR"]);
  });

  itRefusesWhole("BOE", parse, [
    ["a truncated body", "DATE,XUDLUSS,XUDLERS\r\n17 Mar 2026,1.3343,1.1577\r\n18 Mar 2026,1.33"],
    [
      "another bank's body",
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE\r\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-03-02,1.0850\r\n",
    ],
  ]);

  const around = (bad: string) =>
    `DATE,XUDLUSS,XUDLERS\r\n17 Mar 2026,1.3343,1.1577\r\n${bad}\r\n19 Mar 2026,1.3301,1.1569\r\n`;
  const ends = [
    { effectiveDate: "2026-03-17", currency: "USD", rate: "1.3343" },
    { effectiveDate: "2026-03-17", currency: "EUR", rate: "1.1577" },
  ];
  const last = [
    { effectiveDate: "2026-03-19", currency: "USD", rate: "1.3301" },
    { effectiveDate: "2026-03-19", currency: "EUR", rate: "1.1569" },
  ];
  it("holds a line whose date does not exist and takes the others", async () => {
    await expectOneHeld(parse(around("31 Feb 2026,1.3320,1.1572")), {
      records: [...ends, ...last],
      held: { kind: "bad-date", effectiveDate: "31 Feb 2026", source: "line 3" },
    });
  });

  it("holds a value that is not a number and takes the rest of its line", async () => {
    await expectOneHeld(parse(around("18 Mar 2026,n/a,1.1572")), {
      records: [...ends, { effectiveDate: "2026-03-18", currency: "EUR", rate: "1.1572" }, ...last],
      held: { kind: "bad-rate", rate: "n/a", currency: "XUDLUSS", source: "line 3 XUDLUSS" },
    });
  });

  it("holds the values of a series it does not know and takes the others", async () => {
    await expectOneHeld(parse("DATE,XUDLUSS,XUDLGBD\r\n17 Mar 2026,1.3343,1.0\r\n18 Mar 2026,1.3320,\r\n"), {
      records: [
        { effectiveDate: "2026-03-17", currency: "USD", rate: "1.3343" },
        { effectiveDate: "2026-03-18", currency: "USD", rate: "1.3320" },
      ],
      held: { kind: "unknown-currency", currency: "XUDLGBD", rate: "1.0", source: "line 2 XUDLGBD" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOE/001.csv");
    const records = await recordsOf(boe.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(52);
    expect(find("2026-03-17", "USD")).toEqual({ effectiveDate: "2026-03-17", currency: "USD", rate: "1.3343" });
    expect(find("2026-03-17", "CZK")).toEqual({ effectiveDate: "2026-03-17", currency: "CZK", rate: "28.3025" });
    expect(find("2026-03-18", "KRW")).toEqual({ effectiveDate: "2026-03-18", currency: "KRW", rate: "1998.788" });
    expect(find("2026-03-18", "RON")).toEqual({ effectiveDate: "2026-03-18", currency: "RON", rate: "5.8927" });
  });

  it("asks the database for every series over the range, dates as DD/Mon/YYYY", async () => {
    const http = fakeHttp(() => ({ body: "DATE\r\n" }));
    await boe.fetch({ kind: "range", from: "2026-03-17", to: "2026-03-18" }, { http, env: {} });
    await boe.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes&SeriesCodes=XUDLUSS,XUDLERS,XUDLJYS,XUDLCDS,XUDLSFS,XUDLADS,XUDLNDS,XUDLNKS,XUDLSKS,XUDLDKS,XUDLHDS,XUDLSGS,XUDLSRS,XUDLZRS,XUDLTWS,XUDLBK25,XUDLBK33,XUDLBK47,XUDLBK78,XUDLBK83,XUDLBK87,XUDLBK89,XUDLBK93,XUDLBK95,XUDLBK97,XUDLZOS4&UsingCodes=Y&CSVF=TN&Datefrom=17/Mar/2026&Dateto=18/Mar/2026",
    );
    expect(http.seen[1]!.url).toMatch(/&Datefrom=\d{2}\/[A-Z][a-z]{2}\/\d{4}&Dateto=\d{2}\/[A-Z][a-z]{2}\/\d{4}$/);
  });
});
