import { describe, expect, it } from "vitest";

import brb, { BRB_CURRENCY_NAMES, brbFileDate, brbNameKey } from "../../adapters/BRB.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const INDEX = "https://www.brb.bi/en/affichagetoustauxchange";
const pdfUrl = (ddmmyyyy: string) =>
  `https://www.brb.bi/sites/default/files/${ddmmyyyy.slice(6)}-${ddmmyyyy.slice(3, 5)}/Cours%20de%20change%20du%20${ddmmyyyy}.pdf`;
const parse = (body: Buffer | string, url = pdfUrl("20-05-2026")) => brb.parse(Buffer.from(body), { url });

describe("BRB adapter", () => {
  it("takes the Cours moyen jour column of the bulletin, French names mapped, asterisks dropped, per-N units", async () => {
    expect(await parse(fixture("BRB/cours-20-05-2026.pdf"))).toEqual([
      { effectiveDate: "2026-05-20", currency: "USD", rate: "2989.9100" },
      { effectiveDate: "2026-05-20", currency: "SEK", rate: "317.7018" },
      { effectiveDate: "2026-05-20", currency: "XDR", rate: "4087.0963" },
      { effectiveDate: "2026-05-20", currency: "CNY", rate: "439.1464" },
      { effectiveDate: "2026-05-20", currency: "UGX", rate: "79.33", unitMultiplier: 2 },
    ]);
  });

  it("reads the index page as no records (its sidebar rates carry no date)", async () => {
    expect(await parse(fixture("BRB/index-0.html"), INDEX)).toEqual([]);
  });

  it("maps names and file-name dates", () => {
    expect(BRB_CURRENCY_NAMES[brbNameKey("Couronne Norvegienne")]).toBe("NOK");
    expect(BRB_CURRENCY_NAMES[brbNameKey("Dinar Kowetien*")]).toBe("KWD");
    expect(BRB_CURRENCY_NAMES[brbNameKey("Rand Sud-Africain*")]).toBe("ZAR");
    expect(brbFileDate(pdfUrl("21-05-2026"))).toBe("2026-05-21");
    expect(brbFileDate("https://www.brb.bi/sites/default/files/2026-05/rapport.pdf")).toBeUndefined();
  });

  it.each([
    ["an empty body", "", pdfUrl("20-05-2026")],
    [
      "an HTML page where the PDF was expected",
      "<!DOCTYPE html><html><body>Not found</body></html>",
      pdfUrl("20-05-2026"),
    ],
    ["a truncated PDF", fixture("BRB/cours-20-05-2026.pdf").subarray(0, 600), pdfUrl("20-05-2026")],
    ["another bank's body", '{"rates":[]}', INDEX],
    ["a bulletin whose file name says another day", fixture("BRB/cours-20-05-2026.pdf"), pdfUrl("21-05-2026")],
    ["a missing Vendeur label", fixture("BRB/no-vendeur.pdf"), pdfUrl("20-05-2026")],
    ["an unknown currency name", fixture("BRB/unknown-name.pdf"), pdfUrl("20-05-2026")],
  ])("rejects %s with an error naming the bank", async (_what, body, url) => {
    await expect(async () => parse(body, url)).rejects.toThrow(FeedError);
    await expect(async () => parse(body, url)).rejects.toThrow(/^BRB: /);
  });

  it("walks the index until it reaches before the range, then fetches each bulletin in it", async () => {
    const http = fakeHttp((req) => ({
      body: req.url.endsWith(".pdf")
        ? "%PDF-1.4"
        : fixture(req.url.endsWith("page=1") ? "BRB/index-1.html" : "BRB/index-0.html"),
    }));
    await brb.fetch({ kind: "latest" }, { http, env: {} });
    await brb.fetch({ kind: "range", from: "2026-05-18", to: "2026-05-21" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${INDEX}`,
      `GET ${pdfUrl("22-05-2026")}`,
      `GET ${INDEX}`,
      `GET ${INDEX}?page=1`,
      `GET ${pdfUrl("18-05-2026")}`,
      `GET ${pdfUrl("19-05-2026")}`,
      `GET ${pdfUrl("20-05-2026")}`,
      `GET ${pdfUrl("21-05-2026")}`,
    ]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded bulletins exactly (values read off the PDFs by hand)",
    async () => {
      const r2 = recording("BRB/002.pdf");
      const day1 = await brb.parse(r2.body, { url: r2.url });
      expect(day1).toHaveLength(19);
      expect(day1[0]).toEqual({ effectiveDate: "2026-05-20", currency: "CAD", rate: "2172.8650" });
      expect(day1.find((x) => x.currency === "USD")).toEqual({
        effectiveDate: "2026-05-20",
        currency: "USD",
        rate: "2989.9100",
      });
      expect(day1.find((x) => x.currency === "XDR")).toEqual({
        effectiveDate: "2026-05-20",
        currency: "XDR",
        rate: "4087.0963",
      });
      expect(day1.at(-1)).toEqual({ effectiveDate: "2026-05-20", currency: "SAR", rate: "797.3093" });
      const r3 = recording("BRB/003.pdf");
      const day2 = await brb.parse(r3.body, { url: r3.url });
      expect(day2.find((x) => x.currency === "EUR")).toEqual({
        effectiveDate: "2026-05-21",
        currency: "EUR",
        rate: "3475.2065",
      });
      const index = recording("BRB/001.html");
      expect(await brb.parse(index.body, { url: index.url })).toEqual([]);
    },
  );
});
