import { describe, expect, it } from "vitest";

import bsp, { bspTitleDate } from "../../adapters/BSP.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const LIST =
  "https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100";
const NEXT =
  "https://www.bsp.gov.ph/_api/web/lists/getByTitle('RERB')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2281&%24top=100&%24orderby=Id+desc&%24expand=AttachmentFiles&%24select=Id%2cTitle%2cAttachmentFiles";
const pdf = (id: number, title: string) => `https://www.bsp.gov.ph/Lists/RERB/Attachments/${id}/${title}.pdf`;
const parse = (body: Buffer | string, url = pdf(2281, "28May2026")) => bsp.parse(Buffer.from(body), { url });

describe("BSP adapter", () => {
  it("reads only the BSP Reference Rate line of the bulletin, as PHP per USD", async () => {
    expect(await parse(fixture("BSP/28May2026.pdf"))).toEqual([
      { effectiveDate: "2026-05-28", currency: "USD", rate: "61.550" },
    ]);
  });

  it("reads the SharePoint list as no records", async () => {
    expect(await parse(fixture("BSP/list-1.json"), LIST)).toEqual([]);
  });

  it("reads list titles and file names as dates", () => {
    expect(bspTitleDate("29May2026")).toBe("2026-05-29");
    expect(bspTitleDate("01Jun2026.pdf")).toBe("2026-06-01");
    expect(bspTitleDate("31Feb2026")).toBeUndefined();
  });

  it.each([
    ["an empty body", "", pdf(2281, "28May2026")],
    [
      "an HTML page where the PDF was expected",
      "<!DOCTYPE html><html><body>Sorry, something went wrong</body></html>",
      pdf(2281, "28May2026"),
    ],
    ["a truncated PDF", fixture("BSP/28May2026.pdf").subarray(0, 500), pdf(2281, "28May2026")],
    ["another bank's body", '{"rates":[]}', LIST],
    ["a bulletin whose file name says another day", fixture("BSP/28May2026.pdf"), pdf(2282, "29May2026")],
    ["a bulletin without the reference rate", fixture("BSP/no-reference-rate.pdf"), pdf(2281, "28May2026")],
  ])("rejects %s with an error naming the bank", async (_what, body, url) => {
    await expect(async () => parse(body, url)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, url)).rejects.toThrow(/^BSP: /);
  });

  it("pages the list with the verbose JSON Accept until it reaches before the range, then fetches each bulletin", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith(".pdf") ? "%PDF-1.4" : fixture(req.url === LIST ? "BSP/list-1.json" : "BSP/list-2.json"),
    }));
    await bsp.fetch({ kind: "latest" }, { http, env: {} });
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
      expect(await bsp.parse(b.body, { url: b.url })).toEqual([
        { effectiveDate: "2026-05-28", currency: "USD", rate: "61.550" },
      ]);
      const list = recording("BSP/001.json");
      expect(await bsp.parse(list.body, { url: list.url })).toEqual([]);
    },
  );
});
