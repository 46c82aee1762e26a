// Building a store with known rates and publishing it, for publisher and CLI tests.
import type { SqliteStore } from "../../src/store/database.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { BankAdapter, BankDescriptor, RateRecord } from "../../src/types.js";

/** A published Latest.json, as tests read it back. */
export interface LatestJson {
  bankId: string;
  rates: Record<string, Record<string, { rate: number; unitMultiplier?: number }>>;
}

export function testBank(id: string, overrides: Partial<BankDescriptor> = {}): BankAdapter {
  return {
    bank: {
      id,
      names: [{ languageCode: "en", name: `${id} Test Bank`, abbreviatedName: id }],
      dailyUpdateTime: "14:30:00",
      bankCurrency: "CZK",
      countryCode: ["CZ"],
      region: ["Europe"],
      timeZone: "Europe/Prague",
      website: "https://bank.example",
      quoteType: "Direct",
      publicationDays: [1, 2, 3, 4, 5],
      coverageStart: "2000-01-01",
      maxRangeDays: 365,
      sourceUrl: "https://bank.example/feed",
      ...overrides,
    },
    fetch: () => Promise.resolve([]),
    parse: () => [],
  };
}

export function storeRates(
  store: SqliteStore,
  bankId: string,
  records: RateRecord[],
  at = new Date("2026-03-02T13:31:00Z"),
): void {
  ingestBatches(
    store,
    bankId,
    [
      {
        provenance: {
          kind: "import",
          method: "GET",
          url: "https://bank.example/feed",
          startedAt: at,
          finishedAt: at,
          httpStatus: 200,
          body: Buffer.from("x"),
        },
        records,
      },
    ],
    at,
  );
}
