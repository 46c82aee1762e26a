import { afterEach, describe, expect, it } from "vitest";

import { latestRuns, recordRunFinished, recordRunStarted, recordRunWaiting } from "../../src/store/runs.js";
import { tempStore } from "../support/store.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function store() {
  const t = await tempStore();
  cleanup = t.cleanup;
  return t.store;
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 13, minute));

describe("the run log", () => {
  it("keeps a run's start, expected date and last error while it waits and after it ends", async () => {
    const s = await store();
    await recordRunStarted(s, "AAA", "schedule", at(30));
    await recordRunWaiting(
      s,
      "AAA",
      { message: "polling again in 5 min", expected: "2026-11-23", error: "HTTP 500" },
      at(31),
    );
    await recordRunFinished(s, "AAA", { state: "ok", message: "2026-11-23 stored" }, at(36));
    expect((await latestRuns(s)).get("AAA")).toEqual({
      bank_id: "AAA",
      state: "ok",
      reason: "schedule",
      started_at: at(30).toISOString(),
      finished_at: at(36).toISOString(),
      expected_date: "2026-11-23",
      message: "2026-11-23 stored",
      last_error: "HTTP 500",
      last_error_at: at(31).toISOString(),
      pid: process.pid,
    });
  });

  it("a new run replaces the reason and start time and reads as unfinished; each bank has its own row", async () => {
    const s = await store();
    await recordRunStarted(s, "AAA", "schedule", at(30));
    await recordRunFinished(s, "AAA", { state: "failed", message: "boom", error: "boom" }, at(31));
    await recordRunStarted(s, "AAA", "manual", at(40));
    await recordRunStarted(s, "BBB", "catch-up", at(41));
    const runs = await latestRuns(s);
    expect(runs.get("AAA")).toMatchObject({
      state: "running",
      reason: "manual",
      started_at: at(40).toISOString(),
      finished_at: null,
      message: "manual run started",
      last_error: "boom",
    });
    expect(runs.get("BBB")).toMatchObject({ state: "running", reason: "catch-up", last_error: null });
    expect(runs.size).toBe(2);
  });
});
