import { describe, expect, it } from "vitest";

import { parseDocuments } from "../../src/ingest/ingest.js";
import type { BankAdapter, FeedDocument } from "../../src/types.js";
import { testBank } from "../support/publish.js";

const doc = (body: string): FeedDocument => ({
  url: `https://bank.example/${body}`,
  method: "GET",
  status: 200,
  contentType: "text/plain",
  body: Buffer.from(body),
  startedAt: new Date(),
  finishedAt: new Date(),
});
// A feed whose body is "date currency rate" lines.
const adapter: BankAdapter = {
  ...testBank("AAA"),
  parse: (body) =>
    Buffer.from(body)
      .toString()
      .split(";")
      .map((line) => {
        const [effectiveDate, currency, rate] = line.split(" ") as [string, string, string];
        return { effectiveDate, currency, rate };
      }),
};

describe("parseDocuments", () => {
  it("keeps each answer's records with its answer", async () => {
    const parsed = await parseDocuments(adapter, [doc("2026-03-02 USD 20.611"), doc("2026-03-03 USD 20.700")]);
    expect(parsed.map((p) => p.records)).toEqual([
      [{ effectiveDate: "2026-03-02", currency: "USD", rate: "20.611" }],
      [{ effectiveDate: "2026-03-03", currency: "USD", rate: "20.700" }],
    ]);
  });

  it("holds a date and currency two answers give different figures, in both, and keeps the rest", async () => {
    const parsed = await parseDocuments(adapter, [
      doc("2026-03-02 USD 20.611"),
      doc("2026-03-02 USD 20.612"),
      doc("2026-03-03 USD 20.700"),
    ]);
    expect(parsed.map((p) => p.records.length)).toEqual([0, 0, 1]);
    expect(parsed.flatMap((p) => p.held.map((h) => [h.kind, h.rate]))).toEqual([
      ["conflict", "20.611"],
      ["conflict", "20.612"],
    ]);
  });

  it("names the bank when an adapter fails with something other than a FeedError", async () => {
    const broken: BankAdapter = {
      ...adapter,
      parse: () => {
        throw new TypeError("x is undefined");
      },
    };
    await expect(parseDocuments(broken, [doc("anything")])).rejects.toThrow(
      "AAA: could not parse https://bank.example/anything: x is undefined",
    );
  });
});
