// `exrates clients delete` ends a client's tokens at once, so it is never done by accident: on a terminal
// it asks first; without one (a script, a pipe) it is refused unless --yes says so.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CLI, exrates } from "../support/cli.js";

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-clients-delete-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const listed = () => exrates(["clients", "list"], env).stdout;

/** `exrates clients delete <id>` on a pseudo-terminal (util-linux `script`), answering the question. */
function onTerminal(id: string, answer: string): Promise<{ status: number | null; output: string }> {
  const command = `${process.execPath} ${CLI} clients delete ${id}`;
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, ...env, LOG_LEVEL: "warn" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  let answered = false;
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
    if (!answered && output.includes("[y/N]")) {
      answered = true;
      child.stdin.write(`${answer}\n`);
    }
  });
  return new Promise((res) => child.on("exit", (status) => res({ status, output })));
}

describe("exrates clients delete", () => {
  it("without a terminal and without --yes: refused in one line, the client kept", () => {
    expect(exrates(["clients", "create", "erp"], env).status).toBe(0);
    const r = exrates(["clients", "delete", "erp"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "exrates: clients delete erp: stdin is not a terminal, so it cannot ask; add --yes to delete the client and end its tokens\n",
    );
    expect(listed()).toMatch(/^erp +enabled/m);
  });

  it("--yes deletes it", () => {
    const r = exrates(["clients", "delete", "erp", "--yes"], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("client erp deleted\n");
    expect(listed()).not.toMatch(/^erp /m);
  });

  it.skipIf(spawnSync("script", ["--version"]).status !== 0)(
    "on a terminal it asks: no keeps the client, yes deletes it",
    async () => {
      expect(exrates(["clients", "create", "reporting"], env).status).toBe(0);
      const kept = await onTerminal("reporting", "n");
      expect(kept.status).toBe(0);
      expect(kept.output).toContain("delete client reporting? Its tokens stop working at once. [y/N]");
      expect(kept.output).toContain("client reporting not deleted");
      expect(listed()).toMatch(/^reporting +enabled/m);
      const gone = await onTerminal("reporting", "y");
      expect(gone.status).toBe(0);
      expect(gone.output).toContain("client reporting deleted");
      expect(listed()).not.toMatch(/^reporting /m);
    },
  );
});
