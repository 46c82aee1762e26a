// The published tree's modes are set explicitly (files 0644, directories 0755), not left to the umask:
// under umask 000 nothing is world-writable, under umask 077 the server of another user can still read.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { publish } from "../support/unsigned.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const AAA = testBank("AAA");

/** Every file and directory under `root` (symlinks left out: they have no mode of their own), with its mode. */
function modes(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      out.set(path.slice(root.length), lstatSync(path).mode & 0o777);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe("the published tree's modes", () => {
  for (const umask of [0o000, 0o077]) {
    it(`are 0644 for files and 0755 for directories under umask ${umask.toString(8).padStart(3, "0")}`, async () => {
      const t = await tempStore();
      cleanups.push(t.cleanup);
      const out = join(mkdtempSync(join(tmpdir(), "exrates-modes-")), "out");
      cleanups.push(() => rmSync(join(out, ".."), { recursive: true, force: true }));
      const before = process.umask(umask);
      cleanups.push(() => void process.umask(before));
      storeRates(t.store, "AAA", [{ effectiveDate: "2026-04-02", currency: "EUR", rate: "24.170" }]);
      await publish(t.store, [AAA], out);
      // A second publish carries unchanged files from the first generation.
      storeRates(t.store, "AAA", [{ effectiveDate: "2026-04-03", currency: "EUR", rate: "24.180" }]);
      await publish(t.store, [AAA], out);
      const all = modes(out);
      const dirs = [...all].filter(([p]) => lstatSync(out + p).isDirectory());
      const files = [...all].filter(([p]) => lstatSync(out + p).isFile());
      expect(dirs.length).toBeGreaterThan(2);
      expect(files.length).toBeGreaterThan(4);
      expect(lstatSync(out).mode & 0o777).toBe(0o755);
      expect(dirs.filter(([, m]) => m !== 0o755)).toEqual([]);
      // The publish lock file is the publisher's own, not part of what is served.
      expect(files.filter(([p, m]) => m !== 0o644 && !p.endsWith(".lock"))).toEqual([]);
    });
  }
});
