// Every publish is signed, whichever command publishes: `exrates import` publishes a generation that
// `exrates verify` checks whole and signed. Unsigned only when the operator says so
// (EXRATES_PUBLICATION_SIGNING=off): then verify says UNSIGNED plainly, with its own exit code (3).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { loadConfig } from "../../src/config.js";
import { publish } from "../../src/publish/publisher.js";
import { createScheduler } from "../../src/schedule/daemon.js";
import { exrates } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-signed-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const site = (name: string, extra: Record<string, string> = {}) => ({
  EXRATES_DATA_DIR: join(dir, name, "data"),
  EXRATES_OUT_DIR: join(dir, name, "out"),
  ...extra,
});

describe("publishes are signed whichever command publishes", () => {
  it("`exrates import` then `exrates verify out/` passes, signed by the publication key", () => {
    const env = site("signed");
    const imported = exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json")], env);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/CNB: published in generation \S+/);
    const verified = exrates(["verify", env.EXRATES_OUT_DIR], env);
    expect(verified.stdout).toMatch(/^OK: generation \S+, \d+ files, signed by \S+/m);
    expect(verified.status).toBe(0);
  });

  it("with EXRATES_PUBLICATION_SIGNING=off the generation is unsigned and verify says so (exit 3)", () => {
    const env = site("unsigned", { EXRATES_PUBLICATION_SIGNING: "off" });
    const imported = exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json")], env);
    expect(imported.status, imported.stderr).toBe(0);
    const verified = exrates(["verify", env.EXRATES_OUT_DIR], env);
    expect(verified.stdout).toMatch(
      /^UNSIGNED: generation \S+, \d+ files match its manifest, but it carries no signature/m,
    );
    expect(verified.stdout).not.toMatch(/^OK/m);
    expect(verified.status).toBe(3);
  });

  it("any other value of EXRATES_PUBLICATION_SIGNING stops the command", () => {
    expect(() => loadConfig({ EXRATES_PUBLICATION_SIGNING: "no" })).toThrow(
      'EXRATES_PUBLICATION_SIGNING "no" is neither "on" (the default) nor "off"',
    );
    expect(loadConfig({ EXRATES_PUBLICATION_SIGNING: "on" }).unsignedPublications).toBeUndefined();
    expect(loadConfig({ EXRATES_PUBLICATION_SIGNING: "off" }).unsignedPublications).toBe(true);
  });

  it("the publisher and the scheduler refuse to be called without a signing", async () => {
    const bare = publish as unknown as (...args: unknown[]) => Promise<unknown>;
    await expect(bare(undefined, [], join(dir, "none"))).rejects.toThrow(/publish: no signing given/);
    await expect(bare(undefined, [], join(dir, "none"), { only: ["CNB"] })).rejects.toThrow(/no signing given/);
    const options = { adapters: [], outDir: join(dir, "none") } as unknown as Parameters<typeof createScheduler>[0];
    expect(() => createScheduler(options)).toThrow(/no `signing` for its publisher/);
  });
});
