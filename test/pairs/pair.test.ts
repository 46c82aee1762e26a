import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { pairTable } from "../../src/cli/commands/pair.js";
import { DEFAULT_CROSS_CHECK } from "../../src/ingest/sanity.js";
import { bankPairFigure, pairAcross, shiftPoint } from "../../src/pairs/pair.js";
import { BANK_DAYS, DAY, withFigure } from "./fixture.js";

const day = (id: string) => BANK_DAYS.find((d) => d.bankId === id)!;

// Hand computations (QUOTE per one BASE), each quotient rounded to 10 significant digits half away from zero:
//   ECB (USD, JPY per EUR):      162.45 / 1.0850            = 149.7235023
//   CNB (CZK per USD, per 100 JPY): 22.280 x 100 / 14.870   = 149.8318763
//   NBP (PLN per USD, per 100 JPY): 3.9512 x 100 / 2.6342   = 149.9962038
//   BOC (CAD per USD, per JPY):  1.3612 / 0.009122          = 149.2216619
//   BNR (RON per USD, per 100 JPY): 4.5830 x 100 / 3.0612   = 149.7125310
describe("a pair across banks", () => {
  it("crosses each bank's two figures through its own currency, exactly, and names them", () => {
    const answer = pairAcross(BANK_DAYS, "USD", "JPY");
    const rates = Object.fromEntries(answer.figures.map((f) => [f.bankId, f.rate]));
    expect(rates).toEqual({
      BNR: "149.7125310",
      BOC: "149.2216619",
      CNB: "149.8318763",
      ECB: "149.7235023",
      NBP: "149.9962038",
    });
    const cnb = answer.figures.find((f) => f.bankId === "CNB")!;
    expect(cnb).toMatchObject({
      quote: "cross",
      derived: true,
      through: "CZK",
      effectiveDate: DAY,
      publishedAt: "2026-03-02T13:32:00.000Z",
      rounding: { digits: 10, rule: "half away from zero" },
      from: [
        { currency: "USD", rate: "22.280", unit: "1", reads: "CZK per USD" },
        { currency: "JPY", rate: "14.870", unit: "100", reads: "CZK per 100 JPY" },
      ],
    });
    expect(answer.unpriced).toEqual([]);
  });

  it("gives the median of five, the spread and the dispersion", () => {
    const { consensus } = pairAcross(BANK_DAYS, "USD", "JPY");
    // Sorted: BOC 149.2216619, BNR 149.7125310, ECB 149.7235023, CNB 149.8318763, NBP 149.9962038.
    expect(consensus).toMatchObject({
      date: DAY,
      banks: 5,
      median: "149.7235023",
      min: "149.2216619",
      max: "149.9962038",
      // (149.9962038 - 149.2216619) / 149.7235023 = 0.005173148424
      dispersion: "0.005173148424",
      band: DEFAULT_CROSS_CHECK.band,
      outliers: [],
    });
  });

  it("marks a bank whose figure is 10x off as an outlier, with the reason", () => {
    const answer = pairAcross(withFigure("BNR", "USD", "45.830"), "USD", "JPY");
    const bnr = answer.figures.find((f) => f.bankId === "BNR")!;
    // 45.830 x 100 / 3.0612 = 1497.125310; the median moves to CNB's 149.8318763.
    expect(bnr.rate).toBe("1497.125310");
    expect(answer.consensus?.median).toBe("149.8318763");
    expect(answer.consensus?.outliers).toEqual(["BNR"]);
    expect(bnr.outlier).toBe(true);
    expect(bnr.reason).toContain("10^1 times the median 149.8318763: a unit slip?");
    expect(answer.figures.filter((f) => f.outlier)).toHaveLength(1);
    // (1497.125310 - 149.2216619) / 149.8318763
    expect(answer.consensus?.dispersion).toBe("8.996107380");
  });

  it("gives a figure the bank quotes as it published it, and inverts one that reads the other way", () => {
    // ECB publishes CZK per EUR: EUR/CZK is its figure as written.
    expect(bankPairFigure(day("ECB"), "EUR", "CZK")).toMatchObject({ rate: "24.170", quote: "direct", derived: false });
    // CNB publishes CZK per 100 JPY: JPY/CZK is that figure per one JPY, every digit kept.
    expect(bankPairFigure(day("CNB"), "JPY", "CZK")).toMatchObject({ rate: "0.14870", quote: "direct" });
    // CZK/JPY from CNB: 100 / 14.870 = 6.724949563; PLN/EUR from ECB: 1 / 4.2875 = 0.2332361516.
    expect(bankPairFigure(day("CNB"), "CZK", "JPY")).toMatchObject({
      rate: "6.724949563",
      quote: "inverse",
      derived: true,
    });
    expect(bankPairFigure(day("ECB"), "PLN", "EUR")).toMatchObject({ rate: "0.2332361516", quote: "inverse" });
  });

  it("says why a bank cannot price the pair", () => {
    const answer = pairAcross(BANK_DAYS, "USD", "PLN");
    expect(answer.figures.map((f) => f.bankId)).toEqual(["ECB", "NBP"]);
    expect(answer.unpriced.find((u) => u.bankId === "CNB")?.reason).toBe(`CNB quoted no PLN on ${DAY}`);
  });

  it("does not call an outlier with fewer than two other banks against it", () => {
    const two = withFigure("BNR", "USD", "45.830").filter((d) => d.bankId === "BNR" || d.bankId === "ECB");
    const answer = pairAcross(two, "USD", "JPY");
    expect(answer.consensus?.outliers).toEqual([]);
  });

  it("takes the consensus of the newest date two banks share, listing older figures beside it", () => {
    const days = BANK_DAYS.map((d) => (d.bankId === "BOC" ? { ...d, effectiveDate: "2026-02-27" } : d));
    const answer = pairAcross(days, "USD", "JPY");
    expect(answer.consensus?.banks).toBe(4);
    // BNR 149.7125310, ECB 149.7235023, CNB 149.8318763, NBP 149.9962038: (149.7235023 + 149.8318763) / 2
    expect(answer.consensus?.median).toBe("149.7776893");
    expect(answer.figures.find((f) => f.bankId === "BOC")?.sameDay).toBe(false);
  });

  it("shifts a decimal point without losing a written digit", () => {
    expect(shiftPoint("1.230", 2)).toBe("0.01230");
    expect(shiftPoint("1234.5", 2)).toBe("12.345");
    expect(shiftPoint("7", 1)).toBe("0.7");
  });

  it("prints as README's example of `exrates pair USD JPY --date 2026-03-02` shows", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const shown = /\$ exrates pair USD JPY --date 2026-03-02\n((?:.+\n)+)/.exec(readme);
    expect(shown, "README's pair example").not.toBeNull();
    const three = BANK_DAYS.filter((d) => ["CNB", "ECB", "NBP"].includes(d.bankId));
    expect(pairTable(pairAcross(three, "USD", "JPY", undefined, DAY))).toBe(shown![1]);
  });
});
