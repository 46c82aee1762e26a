// What a one-off command writes: its output on stdout, and on stderr only warnings and errors unless
// LOG_LEVEL asks for more (its info lines would interleave with the output when both go to one file);
// the daemons keep logging at info. `exrates banks` takes bank ids like the other commands.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { CLI } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

const roots: string[] = [];
function dirs(): Record<string, string> {
  const root = mkdtempSync(join(tmpdir(), "exrates-output-"));
  roots.push(root);
  return { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out") };
}
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** The CLI with LOG_LEVEL unset unless given, stderr a pipe (not a terminal). */
function run(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: "/tmp", ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("a one-off command's stderr", () => {
  const file = join(FIXTURES_DIR, "CNB/daily-year.json");

  it("holds no info lines by default: only the output, on stdout", () => {
    const r = run(["import", "CNB", file], dirs());
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^CNB: 5 added/);
  });

  it("LOG_LEVEL=info shows them", () => {
    const r = run(["import", "CNB", file], { ...dirs(), LOG_LEVEL: "info" });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^\{"level":30,.*"msg":"imported"\}$/m);
  });

  it("the daemons log at info by default", async () => {
    const child = spawn(process.execPath, [CLI, "serve"], {
      env: { PATH: process.env.PATH ?? "", HOME: "/tmp", ...dirs(), EXRATES_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const deadline = Date.now() + 45_000;
      while (!stderr.includes('"msg":"serving"') && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toMatch(/^\{"level":30,.*"msg":"serving"\}$/m);
    } finally {
      if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
      await exited;
    }
  });
});

describe("exrates banks <ID...>", () => {
  it("lists only the banks named", () => {
    const r = run(["banks", "ECB", "cnb"], dirs());
    expect(r.status, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split(" ")[0]),
    ).toEqual(["BANK", "CNB", "ECB"]);
  });

  it("refuses an unknown bank in one line", () => {
    const r = run(["banks", "XYZ"], dirs());
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^exrates: unknown bank "XYZ" \(known: [A-Z0-9, ]+\)\n$/);
  });
});
