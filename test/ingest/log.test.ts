import { describe, expect, it } from "vitest";

import { logNewAnomalies } from "../../src/ingest/ingest.js";
import type { Logger } from "../../src/log.js";
import type { AnomalyInput } from "../../src/store/anomalies.js";

function recorder() {
  const lines: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const log = { warn: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }) };
  return { log: log as unknown as Logger, lines };
}

const held = (i: number): AnomalyInput => ({
  kind: "unknown-currency",
  reason: `currency "CNH" is not an ISO 4217 code`,
  status: "held",
  effectiveDate: `2026-03-${String(i + 1).padStart(2, "0")}`,
  currency: "CNH",
  rate: "1.5",
});

describe("logging anomalies seen for the first time", () => {
  it("writes one line each for a few", () => {
    const { log, lines } = recorder();
    logNewAnomalies(log, "CBS", {
      newAnomalies: [held(0), { ...held(1), kind: "jump", status: "warned", currency: "GBP" }],
    });
    expect(lines.map((l) => [l.msg, l.fields.kind, l.fields.currency])).toEqual([
      ["held", "unknown-currency", "CNH"],
      ["published with a warning", "jump", "GBP"],
    ]);
  });

  it("summarises the rest of a long history in one line counted by kind", () => {
    const { log, lines } = recorder();
    logNewAnomalies(log, "CBS", { newAnomalies: Array.from({ length: 2101 }, (_x, i) => held(i % 28)) });
    expect(lines).toHaveLength(6);
    expect(lines[5]).toEqual({
      fields: { bank: "CBS", more: 2096, kinds: { "unknown-currency held": 2096 } },
      msg: "more anomalies (exrates anomalies lists them)",
    });
  });

  it("writes nothing when nothing is new (the same answer sent again)", () => {
    const { log, lines } = recorder();
    logNewAnomalies(log, "CBS", { newAnomalies: [] });
    expect(lines).toEqual([]);
  });
});
