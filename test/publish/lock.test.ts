// The publish lock cannot stick: it is a kernel lock held by the publishing process, so a lock file
// naming a live pid that is no publisher (the pid reused after a crash, or this very process) blocks
// nothing, and a publisher killed with SIGKILL leaves nothing that blocks the next one.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { LOCK_FILE, withPublishLock } from "../../src/publish/lock.js";

const BUILT_LOCK = fileURLToPath(new URL("../../dist/src/publish/lock.js", import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another process that takes the lock and holds it until killed. */
async function holder(outDir: string): Promise<ChildProcess> {
  const code = `import(${JSON.stringify(BUILT_LOCK)}).then((m) => m.withPublishLock(${JSON.stringify(outDir)}, () => { console.log("held"); setInterval(() => {}, 1000); return new Promise(() => {}); }))`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => c.toString().includes("held") && resolve());
    child.once("exit", (c) => reject(new Error(`holder exited (${c})`)));
  });
  return child;
}

describe("the publish lock", () => {
  it("a lock file naming a live pid that is not a publisher (this test's own) does not block", async () => {
    writeFileSync(join(dir, LOCK_FILE), String(process.pid));
    await expect(withPublishLock(dir, () => Promise.resolve("published"), 1000)).resolves.toBe("published");
    // And again: the file left behind blocks nothing either.
    await expect(withPublishLock(dir, () => Promise.resolve("again"), 0)).resolves.toBe("again");
  });

  it("a publisher killed with SIGKILL holds nothing: the next publish takes the lock at once", async () => {
    const child = await holder(dir);
    try {
      await expect(withPublishLock(dir, () => Promise.resolve("too early"), 300)).rejects.toThrow(
        /another publish holds .*\.publish\.lock/,
      );
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    await expect(withPublishLock(dir, () => Promise.resolve("published"), 0)).resolves.toBe("published");
  });

  it("publishes in one process take turns", async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = withPublishLock(dir, async () => {
      order.push("first in");
      await new Promise<void>((r) => (release = r));
      order.push("first out");
    });
    await new Promise((r) => setTimeout(r, 20));
    const second = withPublishLock(dir, () => {
      order.push("second");
      return Promise.resolve();
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(order).toEqual(["first in"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first in", "first out", "second"]);
  });
});
