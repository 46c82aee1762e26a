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

  // A feed that yields nothing: "" is an answer with no row, "none" the bank saying it published nothing,
  // "form" a page that only leads to the data.
  const sparse: BankAdapter = {
    ...adapter,
    navigationAnswer: (answer) => Buffer.from(answer.body).toString() === "form",
    parse: (body) => {
      const text = Buffer.from(body).toString();
      if (text === "none") return { records: [], held: [], noPublication: "a holiday" };
      return text === "" ? [] : adapter.parse(body, { url: "" });
    },
  };

  it("refuses answers that together yield nothing without saying why, naming the bank and the request", async () => {
    await expect(parseDocuments(sparse, [doc("form"), doc(""), doc("")])).rejects.toThrow(
      "AAA: no rates found in this answer (GET https://bank.example/ and 1 more): not a page that only leads to the data",
    );
    const post = { ...doc(""), method: "POST" as const, requestBody: "day=2026-03-02" };
    await expect(parseDocuments(sparse, [post])).rejects.toThrow(/^AAA: no rates found in this answer \(POST /);
  });

  it("takes an empty answer beside one that yields figures or says that nothing was published, and a page that only leads to the data", async () => {
    const withFigures = await parseDocuments(sparse, [doc("2026-03-02 USD 20.611"), doc("")]);
    expect(withFigures.map((p) => p.records.length)).toEqual([1, 0]);
    const holiday = await parseDocuments(sparse, [doc("none"), doc("")]);
    expect(holiday[0]).toMatchObject({ records: [], held: [], noPublication: "a holiday" });
    const form = await parseDocuments(sparse, [doc("form")]);
    expect(form[0]).toMatchObject({ records: [], held: [], navigation: true });
  });
});
