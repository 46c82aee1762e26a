// docs/API.md's event samples are what subscribers receive: the `data` of a rates.published frame (made by
// publicationOf from a new Latest against the one served before, then eventPayload with the public URL)
// and of a rates.corrected one (correctionOf over an ingest's revisions). "…" in a sample stands for a
// value left out.
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { correctionOf } from "../../src/events/corrections.js";
import { publicationOf } from "../../src/events/publication.js";
import { eventPayload, type StoredEvent } from "../../src/store/events.js";

const API = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");
const PUBLIC_URL = "https://rates.example";

/** `data` of the frame of `event` as subscribers get it, with the values the sample elides as "…". */
function frameData(event: StoredEvent): Record<string, unknown> {
  return JSON.parse(JSON.stringify(eventPayload(event, PUBLIC_URL))) as Record<string, unknown>;
}

describe("docs/API.md's event samples", () => {
  it("rates.published", () => {
    const frame = /```\nid: 42\nevent: rates\.published\ndata: (.+)\n```/.exec(API);
    expect(frame, "the rates.published frame").not.toBeNull();
    const shown = JSON.parse(frame![1]!) as Record<string, unknown>;
    const latest = "v1/Banks/CNB/DailyRates/Latest";
    const data = publicationOf(
      {
        bankId: "CNB",
        baseCurrency: "CZK",
        quoteType: "Direct",
        effectiveDate: "2026-04-02",
        rates: [
          { currency: "EUR", rate: "24.310" },
          { currency: "JPY", rate: "13.226", unitMultiplier: 2 },
          { currency: "USD", rate: "20.955" },
        ],
        publishedAt: "2026-04-02T12:31:07.120Z",
        sourceUrl: "https://api.cnb.cz/cnbapi/exrates/daily?date=2026-04-02",
      },
      {
        effectiveDate: "2026-04-01",
        figures: new Map([
          ["EUR", "24.300/0"],
          ["JPY", "13.226/2"],
          ["USD", "20.940/0"],
        ]),
      },
      { json: `/${latest}.json`, xml: `/${latest}.xml`, csv: `/${latest}.csv`, xlsx: `/${latest}.xlsx` },
    );
    const real = frameData({ id: 42, type: "rates.published", createdAt: "", data: data! });
    const latestShown = shown.latest as Record<string, string>;
    expect(Object.values(latestShown).filter((v) => v !== "…")).toHaveLength(1);
    const realLatest = real.latest as Record<string, string>;
    expect(Object.keys(realLatest)).toEqual(Object.keys(latestShown));
    expect({ ...real, latest: { ...realLatest, xml: "…", csv: "…", xlsx: "…" } }).toEqual(shown);
    expect(realLatest.xlsx).toBe(`${PUBLIC_URL}/${latest}.xlsx`);
  });

  it("rates.corrected", () => {
    const line = /`(\{"id":44,"bankId":"CNB","correctedAt".+?\})`/.exec(API);
    expect(line, "the rates.corrected data").not.toBeNull();
    const data = correctionOf("CNB", [
      { effective_date: "2026-03-30", currency: "EUR", revised_at: "2026-04-03T06:10:02.114Z" },
    ]);
    const real = frameData({ id: 44, type: "rates.corrected", createdAt: "", data: data! });
    expect(JSON.stringify(real)).toBe(line![1]);
  });
});
