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
  .object({ url: z.string(), fetchedAt: z.string(), sha256: z.string().nullable() })
  .passthrough()
  .describe("One of the bank's answers the figures came from");
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
