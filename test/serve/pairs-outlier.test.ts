// The pair across banks over HTTP with one bank's figure made 10x off (BNR's USD 45.830 for 4.5830): the
// answer marks that bank as an outlier with the reason, in JSON and in CSV, and the consensus leaves it out
// of nothing but its verdict (the median moves to the next figure, as computed by hand below).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import { parseCsv } from "../support/csv.js";
import { DAY, withFigure } from "../pairs/fixture.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

beforeAll(async () => {
  h = await startHarness({ publish: false });
  for (const day of withFigure("BNR", "USD", "45.830")) {
    const when = new Date(day.publishedAt);
    const records = day.figures.map((f) => ({
      effectiveDate: day.effectiveDate,
      currency: f.currency,
      rate: f.rate,
      ...(f.unitMultiplier ? { unitMultiplier: f.unitMultiplier } : {}),
    }));
    const provenance = {
      ...{ kind: "import" as const, method: "GET" as const, url: `https://example.test/${day.bankId}` },
      ...{ startedAt: when, finishedAt: when, httpStatus: 200, body: Buffer.from(`${day.bankId} fixture`) },
    };
    ingestBatches(h.store, day.bankId, [{ provenance, records }]);
    recordQuoting(h.store, day.bankId, day.baseCurrency, day.quoteType);
  }
  auth = { authorization: `Bearer ${await h.token()}` };
});
afterAll(async () => h.close());

describe("a bank 10x off in GET /v1/Pairs/USD/JPY/{date}", () => {
  it("is marked as the outlier with its reason; the median is the others' middle figure", async () => {
    const res = await fetch(`${h.url}/v1/Pairs/USD/JPY/${DAY}`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      banks: Array<{ bankId: string; rate: string; outlier?: boolean; reason?: string }>;
      consensus: { median: string; outliers: string[]; dispersion: string };
    };
    const bnr = body.banks.find((b) => b.bankId === "BNR")!;
    // 45.830 x 100 / 3.0612 = 1497.125310
    expect(bnr).toMatchObject({ rate: "1497.125310", outlier: true });
    expect(bnr.reason).toContain("10^1 times the median 149.8318763: a unit slip?");
    expect(body.banks.filter((b) => b.outlier).map((b) => b.bankId)).toEqual(["BNR"]);
    // ECB 149.7235023, CNB 149.8318763, NBP 149.9962038, BOC 149.2216619 and BNR: the middle of five is CNB's.
    expect(body.consensus).toMatchObject({ median: "149.8318763", outliers: ["BNR"], dispersion: "8.996107380" });
  });

  it("says so in the CSV too", async () => {
    const res = await fetch(`${h.url}/v1/Pairs/USD/JPY/${DAY}.csv`, { headers: auth });
    expect(res.status).toBe(200);
    const rows = parseCsv(await res.text());
    const header = rows[0]!;
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    const bnr = rows.find((r) => cell(r, "BankId") === "BNR")!;
    expect(cell(bnr, "Rate")).toBe("1497.125310");
    expect(cell(bnr, "Outlier")).toBe("true");
    expect(cell(bnr, "Reason")).toContain("a unit slip?");
    const ecb = rows.find((r) => cell(r, "BankId") === "ECB")!;
    expect(cell(ecb, "Outlier")).toBe("false");
    expect(
      cell(
        rows.find((r) => cell(r, "Row") === "consensus")!,
        "Rate",
      ),
    ).toBe("149.8318763");
  });
});
