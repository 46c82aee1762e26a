// The tools' wording and bounds with a reader standing in for the API (the SDK's in-memory transport):
// an Indirect bank's figures, the scheduler's reason for a bank with no rates (what `exrates start`
// answers), a history cut at its bound, and a currency missing on some dates.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";

import { ExratesError, type BankDetail, type DailyRates, type RatesAnswer } from "@exrates/client";
import { createRatesMcpServer } from "../../src/mcp/server.js";
import { MAX_HISTORY_POINTS, type RatesReader } from "../../src/mcp/tools.js";
import { addDays } from "../../src/feed/dates.js";

const ECB: BankDetail = {
  id: "ECB",
  name: [{ languageCode: "en", name: "European Central Bank", abbreviatedName: "ECB" }],
  dailyUpdateTime: "16:00:00",
  bankCurrency: "EUR",
  countryCode: ["DE"],
  region: ["Europe"],
  timeZone: { windowsTimeZoneId: "W. Europe Standard Time", ianaTimeZoneName: "Europe/Berlin" },
  supportedFrequencies: ["Daily"],
  website: "https://www.ecb.europa.eu",
};

const day = (effectiveDate: string, rates: DailyRates["rates"]): DailyRates => ({
  bankId: "ECB",
  baseCurrency: "EUR",
  quoteType: "Indirect",
  frequency: "Daily",
  effectiveDate,
  rates,
});

/** A reader answering from these days; any other call is a test failure. */
function reader(days: DailyRates[], overrides: Partial<RatesReader> = {}): RatesReader {
  const unexpected = () => Promise.reject(new Error("not expected in this test"));
  return {
    banks: unexpected,
    currencies: unexpected,
    onDate: unexpected,
    convert: unexpected,
    calendar: unexpected,
    corrections: unexpected,
    pair: unexpected,
    bank: (id: string) => (id.toUpperCase() === "ECB" ? Promise.resolve(ECB) : unexpected()),
    latest: (): Promise<RatesAnswer> => Promise.resolve({ ...days.at(-1)!, notQuoted: [] }),
    range: async function* () {
      for (const d of days) yield await Promise.resolve(d);
    } as RatesReader["range"],
    ...overrides,
  };
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(source: RatesReader): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createRatesMcpServer(source).connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text: string }> };

describe("the MCP tools' answers", () => {
  it("reads an Indirect bank's figures base currency first", async () => {
    const client = await connect(reader([day("2026-03-02", [{ currency: "USD", rate: "1.0850" }])]));
    const result = (await client.callTool({ name: "get_latest_rates", arguments: { bank: "ECB" } })) as Result;
    expect(result.structuredContent).toMatchObject({
      bank: { id: "ECB", name: "European Central Bank" },
      quoteType: "Indirect",
      rates: [{ currency: "USD", rate: "1.0850", unit: 1, from: "EUR", to: "USD", reads: "1 EUR = 1.0850 USD" }],
    });
    expect(result.content[0]!.text).toBe(
      "ECB (European Central Bank): latest rates, effective 2026-03-02, quoted Indirect: units of each foreign currency per the stated units of EUR:\n1 EUR = 1.0850 USD",
    );
  });

  it("says what the scheduler says of a bank with no rates", async () => {
    const client = await connect(
      reader([], {
        latest: () =>
          Promise.reject(
            new ExratesError({
              type: "urn:exrates:problem:no-rates-yet",
              title: "No rates published yet for this bank",
              status: 404,
              detail: "Bank FRED is known but has no rates published yet; next run 2026-11-28T21:00:00.000Z",
              extensions: { bank: "FRED", state: "needs credential" },
            }),
          ),
        bank: () =>
          Promise.resolve({
            ...ECB,
            id: "FRED",
            status: {
              state: "needs credential",
              summary: "needs EXRATES_FRED_API_KEY (a free key from fred.stlouisfed.org)",
            },
          } as BankDetail),
      }),
    );
    const result = (await client.callTool({ name: "get_latest_rates", arguments: { bank: "FRED" } })) as Result;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(
      "Bank FRED is known but has no rates published yet; next run 2026-11-28T21:00:00.000Z. " +
        "Its state: needs credential (needs EXRATES_FRED_API_KEY (a free key from fred.stlouisfed.org)).",
    );
  });

  it("keeps only the dates that quote the currency, and refuses a history past its bound", async () => {
    const sparse = [
      day("2026-03-02", [{ currency: "USD", rate: "1.0850" }]),
      day("2026-03-03", [{ currency: "JPY", rate: "160.12" }]),
      day("2026-03-04", [{ currency: "USD", rate: "1.0900" }]),
    ];
    const client = await connect(reader(sparse));
    const some = (await client.callTool({
      name: "get_rate_history",
      arguments: { bank: "ECB", currency: "usd", from: "2026-03-01" },
    })) as Result;
    expect(some.structuredContent!.points).toEqual([
      { effectiveDate: "2026-03-02", rate: "1.0850", unit: 1, reads: "1 EUR = 1.0850 USD" },
      { effectiveDate: "2026-03-04", rate: "1.0900", unit: 1, reads: "1 EUR = 1.0900 USD" },
    ]);

    const many: DailyRates[] = [];
    for (let i = 0, d = "2020-01-01"; i <= MAX_HISTORY_POINTS; i++, d = addDays(d, 1))
      many.push(day(d, [{ currency: "USD", rate: "1.1" }]));
    const tooMany = (await (
      await connect(reader(many))
    ).callTool({
      name: "get_rate_history",
      arguments: { bank: "ECB", currency: "USD", from: "2020-01-01" },
    })) as Result;
    expect(tooMany.isError).toBe(true);
    expect(tooMany.content[0]!.text).toBe(
      `ECB has more than ${MAX_HISTORY_POINTS} dates of USD from 2020-01-01: ask for a shorter range`,
    );
  });
});
