import { describe, expect, it } from "vitest";

import bsp, { bspTitleDate } from "../../adapters/BSP.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";
import { pdfOf } from "../support/pdf.js";

const LIST =
  "https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100";
const NEXT =
  "https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2281&%24top=100&%24orderby=Id+desc&%24expand=AttachmentFiles&%24select=Id%2cTitle%2cAttachmentFiles";
const pdf = (id: number, title: string) => `https://www.bsp.gov.ph/Lists/RERB/Attachments/${id}/${title}.pdf`;
const parse = (body: Buffer | string, url = pdf(2281, "28May2026")) => bsp.parse(Buffer.from(body), { url });

/** A bulletin in the bank's layout: title, the date line under it, and the reference rate line(s). */
const bulletin = (dated: string, ...rates: string[]) =>
  pdfOf([
    [210, 789, "BANGKO SENTRAL NG PILIPINAS"],
    [196, 764, "REFERENCE EXCHANGE RATE BULLETIN"],
    [257, 751, dated],
    [29, 250, "BSP Selling Rate (T/T):"],
    [134, 250, "PHP"],
    [214, 250, "61.800"],
    ...rates.flatMap((rate, i): Array<[number, number, string]> => [
      [29, 238 - 13 * i, "BSP Reference Rate:"],
      [133, 238 - 13 * i, "PHP"],
      [214, 238 - 13 * i, rate],
    ]),
  ]);

describe("BSP adapter", () => {
  it("reads only the BSP Reference Rate line of the bulletin, as PHP per USD", async () => {
    expect(await recordsOf(parse(fixture("BSP/28May2026.pdf")))).toEqual([
      { effectiveDate: "2026-05-28", currency: "USD", rate: "61.550" },
    ]);
  });

  it("never parses the SharePoint list pages (navigation), only the bulletins", () => {
    expect(bsp.navigation?.test(LIST)).toBe(true);
    expect(bsp.navigation?.test(NEXT)).toBe(true);
    expect(bsp.navigation?.test(pdf(2281, "28May2026"))).toBe(false);
  });

  it("reads list titles and file names as dates", () => {
    expect(bspTitleDate("29May2026")).toBe("2026-05-29");
    expect(bspTitleDate("01Jun2026.pdf")).toBe("2026-06-01");
    expect(bspTitleDate("31Feb2026")).toBeUndefined();
  });

  itRefusesWhole("BSP", (body) => parse(body), [
    ["a truncated PDF", fixture("BSP/28May2026.pdf").subarray(0, 500)],
    ["the SharePoint list where a bulletin was expected", fixture("BSP/list-1.json")],
    ["another bank's body", '{"rates":[]}'],
    ["a bulletin without the reference rate", fixture("BSP/no-reference-rate.pdf")],
    ["a bulletin whose date line is no date", bulletin("Thursday", "61.550")],
  ]);

  it("refuses a bulletin whose file name says another day", async () => {
    await expect(async () => parse(fixture("BSP/28May2026.pdf"), pdf(2282, "29May2026"))).rejects.toThrow(
      /^BSP: the bulletin is dated 2026-05-28 but its file name says 2026-05-29/,
    );
  });

  it.each([
    ["a figure that is not a number", bulletin("28 May 2026", "61,550.0.0"), { kind: "bad-rate", rate: "61,550.0.0" }],
    [
      "a date that does not exist",
      bulletin("31 June 2026", "61.550"),
      { kind: "bad-date", effectiveDate: "31 June 2026" },
    ],
  ] as const)("holds the reference rate with %s (the bulletin's only figure)", async (_what, body, held) => {
    await expectOneHeld(parse(body, pdf(2281, "bulletin")), {
      records: [],
      held: { ...held, currency: "USD", source: expect.stringMatching(/^page 1 "BSP Reference Rate: PHP /) as string },
    });
  });

  it("takes every reference rate line, so that two different figures meet as a conflict at the gate", async () => {
    const answer = await answerOf(parse(bulletin("28 May 2026", "61.550", "61.560")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-05-28", currency: "USD", rate: "61.550" },
      { effectiveDate: "2026-05-28", currency: "USD", rate: "61.560" },
    ]);
  });

  it("pages the list with the verbose JSON Accept until it reaches before the range, then fetches each bulletin", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith(".pdf") ? "%PDF-1.4" : fixture(req.url === LIST ? "BSP/list-1.json" : "BSP/list-2.json"),
    }));
    const docs = await bsp.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    await bsp.fetch({ kind: "range", from: "2026-05-26", to: "2026-05-29" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${LIST}`,
      `GET ${pdf(2283, "01Jun2026")}`,
      `GET ${LIST}`,
      `GET ${NEXT}`,
      `GET ${pdf(2280, "26May2026")}`,
      `GET ${pdf(2281, "28May2026")}`,
      `GET ${pdf(2282, "29May2026")}`,
    ]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded list and bulletin exactly (values read off the files by hand)",
    async () => {
      const b = recording("BSP/002.pdf");
      // "BSP Reference Rate: PHP 61.550" under "28 May 2026".
      expect(await recordsOf(bsp.parse(b.body, { url: b.url }))).toEqual([
        { effectiveDate: "2026-05-28", currency: "USD", rate: "61.550" },
      ]);
      expect(bsp.navigation?.test(recording("BSP/001.json").url)).toBe(true);
    },
  );
});
