import { describe, expect, it } from "vitest";

import bot, { unitOfName } from "../../adapters/BOT.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=2026-01-06&end_period=2026-01-06";
const parse = (body: Buffer | string) => bot.parse(Buffer.from(body), { url: URL });

describe("BOT adapter", () => {
  it("takes mid_rate as published, the unit from the name, and skips an empty mid rate", async () => {
    expect(await recordsOf(parse(fixture("BOT/daily.json")))).toEqual([
      { effectiveDate: "2026-01-06", currency: "USD", rate: "31.6610500" },
      { effectiveDate: "2026-01-06", currency: "JPY", rate: "20.5757500", unitMultiplier: 2 },
      { effectiveDate: "2026-01-06", currency: "IDR", rate: "1.9322000", unitMultiplier: 3 },
    ]);
  });

  it("reads the unit written in a currency name", () => {
    expect(unitOfName("JAPAN : YEN (100 YEN) (JPY) ")).toBe("100");
    expect(unitOfName("INDONESIA : RUPIAH (1,000 RUPIAH) (IDR)")).toBe("1000");
    expect(unitOfName("USA : DOLLAR (USD) ")).toBe("1");
    expect(() => unitOfName("JAPAN : YEN (1.5 YEN) (JPY)")).toThrow(/^BOT: .*not a whole number/);
  });

  itRefusesWhole("BOT", parse, [
    [
      "truncated JSON",
      '{"result":{"data":{"data_detail":[{"period":"2026-01-06","currency_id":"USD","mid_rate":"31.66',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    [
      "a gateway error",
      '{"httpCode":"401","httpMessage":"Unauthorized","moreInformation":"Client id not registered."}',
    ],
    [
      "another unit of quotation",
      '{"result":{"data":{"data_header":{"report_uoq_name_eng":"(Unit: Foreign Currency / 1 Baht)"},"data_detail":[]}}}',
    ],
  ]);

  const detail = (period: string, id: string, name: string, mid: string) =>
    `{"period":"${period}","currency_id":"${id}","currency_name_eng":"${name}","mid_rate":"${mid}"}`;
  const answer = (bad: string) =>
    `{"result":{"data":{"data_header":{"report_uoq_name_eng":"(Unit: Baht / 1 Unit of Foreign Currency)"},"data_detail":[` +
    `${detail("2026-01-06", "USD", "USA : DOLLAR (USD) ", "31.6610500")},${bad},` +
    `${detail("2026-01-06", "JPY", "JAPAN : YEN (100 YEN) (JPY) ", "20.5757500")}]}}}`;
  it.each([
    [
      "a figure that is not a number",
      detail("2026-01-06", "EUR", "EURO : EURO (EUR)", "31,66"),
      { kind: "bad-rate", rate: "31,66" },
    ],
    [
      "a date that does not exist",
      detail("2026-02-29", "EUR", "EURO : EURO (EUR)", "36.9"),
      { kind: "bad-date", effectiveDate: "2026-02-29" },
    ],
    [
      "a unit that is not a whole number",
      detail("2026-01-06", "IDR", "INDONESIA : RUPIAH (1.000 RUPIAH) (IDR)", "1.93"),
      { kind: "unknown-unit", currency: "IDR" },
    ],
    [
      "a code that is neither ISO 4217 nor a market code",
      detail("2026-01-06", "QQQ", "ATLANTIS : DRACHMA (QQQ)", "4.52"),
      { kind: "unknown-currency", currency: "QQQ" },
    ],
  ] as const)("holds a row with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), {
      records: [
        { effectiveDate: "2026-01-06", currency: "USD", rate: "31.6610500" },
        { effectiveDate: "2026-01-06", currency: "JPY", rate: "20.5757500", unitMultiplier: 2 },
      ],
      held: { ...held, source: "data_detail[1]" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded days exactly (values read off the file by hand)", async () => {
    const r = recording("BOT/001.json");
    const records = await recordsOf(bot.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(38);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-04-02", "USD")).toEqual({ effectiveDate: "2026-04-02", currency: "USD", rate: "32.6611000" });
    expect(find("2026-04-02", "JPY")).toEqual({
      effectiveDate: "2026-04-02",
      currency: "JPY",
      rate: "20.5758000",
      unitMultiplier: 2,
    });
    expect(find("2026-04-01", "IDR")).toEqual({
      effectiveDate: "2026-04-01",
      currency: "IDR",
      rate: "1.9282000",
      unitMultiplier: 3,
    });
  });

  it("asks the range with the Authorization header, and says which variable is missing", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await bot.fetch(
      { kind: "range", from: "2026-04-01", to: "2026-04-02" },
      { http, env: { EXRATES_BOT_API_KEY: "k" } },
    );
    expect(http.seen).toEqual([
      {
        method: "GET",
        url: "https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=2026-04-01&end_period=2026-04-02",
        headers: { Authorization: "k" },
      },
    ]);
    await expect(bot.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^BOT: needs EXRATES_BOT_API_KEY/);
  });
});
