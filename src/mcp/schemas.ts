// The zod schemas the MCP tools share: their inputs (strict: a key a tool does not know is refused, never
// dropped) and the shapes of their answers.
import { z } from "zod";

export const bankId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]{1,9}$/, "a bank id such as CNB or ECB")
  .describe("The bank's id, e.g. ECB, CNB, HMRC (list_banks gives them all)");
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");
export const currencyCode = z.string().regex(/^[A-Za-z]{3}$/, "an ISO 4217 code such as USD");
export const currencies = z
  .array(currencyCode)
  .max(200)
  .optional()
  .describe("Only these currencies (ISO 4217 codes); all of the bank's when absent");
export const asOf = z
  .string()
  .min(1)
  .optional()
  .describe("As the service knew it at this instant (RFC 3339, e.g. 2026-03-03T15:00:00Z): later corrections left out");
export const base = currencyCode
  .optional()
  .describe("Re-express the table against this currency through the bank's own figures (not the bank's figures)");

/** A tool's input: its members, and no other (an unknown key is an error, not silently ignored). */
export const strictInput = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);

export const figure = z.object({
  currency: z.string(),
  rate: z.string().describe("The exact decimal the bank published (a string: no digit lost or added)"),
  unit: z.number().int().describe("How many units of `from` the rate is for"),
  from: z.string(),
  to: z.string(),
  reads: z.string().describe('The figure in words, e.g. "100 JPY = 13.26033 CZK"'),
  validFrom: isoDate.optional().describe("A period source's figure: the first day it is in force"),
  validTo: isoDate.optional().describe("A period source's figure: the last day it is in force"),
});
export const bankRef = z.object({ id: z.string(), name: z.string().optional() });
export const source = z
  .union([
    z
      .object({
        kind: z.literal("fetch").optional(),
        url: z.string(),
        fetchedAt: z.string(),
        sha256: z.string().nullable(),
      })
      .passthrough()
      .describe("An answer the service fetched from the bank: the URL asked and when"),
    z
      .object({
        kind: z.literal("import"),
        file: z.string().nullable(),
        importedBy: z.string().nullable(),
        importedAt: z.string(),
        sha256: z.string().nullable(),
        declaredUrl: z.string().optional().describe("Where the importer said the file came from: not verified"),
      })
      .passthrough()
      .describe("A saved answer an operator imported (never fetched by the service): its file name, who, when"),
  ])
  .describe("Where the figures came from: a fetch from the bank or an imported file (`kind`)");
export const ratesOutput = {
  bank: bankRef,
  baseCurrency: z.string(),
  quoteType: z.enum(["Direct", "Indirect"]),
  frequency: z.enum(["Daily", "Weekly", "Monthly", "Quarterly"]).describe("How often the source publishes"),
  effectiveDate: isoDate.describe("The date of the bank's publication these rates are"),
  rates: z.array(figure),
  notQuoted: z.array(z.string()).describe("Currencies asked for that the bank did not quote on that date"),
  derivedFrom: z
    .object({ baseCurrency: z.string(), quoteType: z.enum(["Direct", "Indirect"]) })
    .optional()
    .describe("With `base`: the bank's own base and direction (the rates are re-expressed, not the bank's)"),
  asOf: z.string().optional().describe("With `asOf`: the instant answered for"),
  provenance: z.array(source).optional(),
};

export const banks = z
  .array(bankId)
  .min(1)
  .max(200)
  .optional()
  .describe("Only these banks (their ids); every bank with stored rates when absent");
export const rounding = z.object({ digits: z.number().int(), rule: z.string() });
export const pairFigure = z.object({
  bankId: z.string(),
  rate: z.string().describe("QUOTE per one BASE, an exact decimal (derived figures keep `rounding`)"),
  effectiveDate: isoDate,
  publishedAt: z.string().optional(),
  quote: z.enum(["direct", "inverse", "cross"]).describe("As published, its inverse, or crossed through `through`"),
  derived: z.boolean().describe("Not a figure the bank published (inverse or cross)"),
  through: z.string().describe("The bank's own currency"),
  from: z.array(z.object({ currency: z.string(), rate: z.string(), unit: z.string(), reads: z.string() })),
  rounding: rounding.optional(),
  sameDay: z.boolean().describe("Published on the consensus date"),
  outlier: z.boolean(),
  reason: z.string().optional().describe("Why the figure is an outlier"),
});
export const consensus = z.object({
  date: isoDate.describe("The date of the figures the median is of"),
  banks: z.number().int(),
  median: z.string(),
  min: z.string(),
  max: z.string(),
  dispersion: z.string().describe("(max - min) / median"),
  band: z.number().describe("Relative distance from the median beyond which a figure is an outlier"),
  minBanks: z.number().int(),
  outliers: z.array(z.string()),
});
export const group = z
  .enum(["week", "month", "quarter", "year"])
  .describe("The periods: ISO weeks, calendar months, quarters or years");
export const periodAverage = z.object({
  period: z.string().describe("2026-W05, 2026-03, 2026-Q1 or 2026"),
  start: isoDate,
  end: isoDate,
  partial: z.boolean().describe("The range cuts the period: the mean is of its days within the range"),
  currency: z.string().optional().describe("A bank's average: the currency"),
  bankId: z.string().optional().describe("A pair's average: the bank"),
  mean: z.string().describe("Per one unit, to `rounding`"),
  exact: z.boolean().describe("The mean as written is the exact mean"),
  sum: z.string().describe("The exact sum of the figures averaged"),
  days: z.number().int(),
  first: isoDate,
  last: isoDate,
  min: z.string(),
  max: z.string(),
  endOfPeriod: z.string().describe("The figure of the period's last published day in the range"),
});
