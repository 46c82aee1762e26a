// One daemon per data directory: the lock is exclusive, names its holder to the second taker, and is
// free again once released (the kernel also frees it when the holder dies: test/e2e/operator.test.ts).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { DaemonRunningError, HOLDER_FILE, acquireDaemonLock } from "../../src/schedule/daemon-lock.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the daemon lock", () => {
  it("refuses a second holder, naming the first, until it is released", () => {
    dir = join(mkdtempSync(join(tmpdir(), "exrates-lock-")), "data");
    const first = acquireDaemonLock(dir, new Date("2026-11-23T10:00:00Z"));
    first.describe({ url: "http://127.0.0.1:8080" });
    let refusal: unknown;
    try {
      acquireDaemonLock(dir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DaemonRunningError);
    expect((refusal as Error).message).toBe(
      `another exrates daemon is running on the data directory ${dir}: pid ${process.pid} on ${hostname()} (since 2026-11-23T10:00:00.000Z, serving http://127.0.0.1:8080); stop it first, or give this one another EXRATES_DATA_DIR`,
    );
    first.release();
    first.release(); // twice is harmless
    expect(existsSync(join(dir, HOLDER_FILE))).toBe(false);
    const second = acquireDaemonLock(dir);
    second.release();
  });
});
