// A daily bank's Latest inputs (newest date, its rates, their warnings): the same rows as the store's reads
// newestDate, ratesOn and warnedFigures give (on SQLite those run prepared statements: a publish asks them of every bank).
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { dailyInputs, latestDocument } from "../../src/publish/document.js";
import { warnedFigures } from "../../src/store/anomalies.js";
import { ingestBatches, newestDate, ratesOn } from "../../src/store/rates.js";
import { testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
const at = new Date("2026-03-03T15:00:00Z");
const provenance = {
  kind: "import" as const,
  method: "GET" as const,
  url: "https://bank.example/feed",
  startedAt: at,
  finishedAt: at,
  httpStatus: 200,
  body: Buffer.from("x"),
};

beforeEach(async () => {
  ctx = await tempStore();
  ingestBatches(
    ctx.store,
    "AAA",
    [
      {
        provenance,
        records: [
          { effectiveDate: "2026-03-02", currency: "USD", rate: "21.500" },
          { effectiveDate: "2026-03-03", currency: "USD", rate: "21.600" },
          { effectiveDate: "2026-03-03", currency: "HUF", rate: "6.304", unitMultiplier: 2 },
          { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" },
        ],
        anomalies: [
          {
            kind: "jump",
            reason: "USD doubted",
            status: "warned",
            effectiveDate: "2026-03-03",
            currency: "USD",
            rate: "21.600",
            unitMultiplier: 0,
          },
          {
            kind: "jump",
            reason: "HUF doubted",
            status: "warned",
            effectiveDate: "2026-03-03",
            currency: "HUF",
            rate: "6.304",
            unitMultiplier: 2,
          },
          {
            kind: "jump",
            reason: "an older day",
            status: "warned",
            effectiveDate: "2026-03-02",
            currency: "USD",
            rate: "21.500",
            unitMultiplier: 0,
          },
          {
            kind: "jump",
            reason: "replaced since",
            status: "warned",
            effectiveDate: "2026-03-03",
            currency: "EUR",
            rate: "30.000",
            unitMultiplier: 0,
          },
        ],
      },
    ],
    at,
  );
});
afterEach(() => ctx.cleanup());

describe("dailyInputs", () => {
  it("on SQLite gives the rows of the portable reads", async () => {
    const inputs = await dailyInputs(ctx.store, "AAA");
    const date = await newestDate(ctx.store, "AAA");
    expect(date).toBe("2026-03-03");
    expect(inputs).toEqual({
      date,
      rows: await ratesOn(ctx.store, "AAA", date!),
      warned: await warnedFigures(ctx.store, "AAA", date!, date!),
    });
    expect(inputs!.rows.map((r) => [r.currency, r.rate, r.unitMultiplier])).toEqual([
      ["EUR", "24.180", 0],
      ["HUF", "6.304", 2],
      ["USD", "21.600", 0],
    ]);
    expect(inputs!.warned.map((w) => w.reason).sort()).toEqual(["HUF doubted", "USD doubted", "replaced since"]);
  });

  it("is undefined for a bank without rates, and the document flags only the stored figures", async () => {
    expect(await dailyInputs(ctx.store, "BBB")).toBeUndefined();
    const doc = await latestDocument(ctx.store, testBank("AAA").bank);
    expect(doc!.rates).toEqual([
      { currency: "EUR", rate: "24.180" },
      { currency: "HUF", rate: "6.304", unitMultiplier: 2, warning: expect.stringContaining("HUF doubted") as string },
      { currency: "USD", rate: "21.600", warning: expect.stringContaining("USD doubted") as string },
    ]);
  });
});
