// The test cluster never outlives the process that started it: killed with SIGKILL (no exit handler
// runs), its watchdog stops the server and removes the directory.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { skipPostgres } from "../support/postgres.js";

const SCRIPT = fileURLToPath(new URL("../../scripts/test-postgres.mjs", import.meta.url));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe.skipIf(skipPostgres)("the test PostgreSQL cluster", () => {
  it("is stopped and removed when its process is killed", async () => {
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { startPostgres } = await import(${JSON.stringify(SCRIPT)});
         const c = await startPostgres();
         console.log(JSON.stringify({ port: c.port, dir: c.dir }));
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const started = await new Promise<{ port: number; dir: string }>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("\n")) resolve(JSON.parse(out) as { port: number; dir: string });
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      expect(existsSync(started.dir)).toBe(true);
      expect(await accepts(started.port)).toBe(true);
      child.kill("SIGKILL");
      let gone = false;
      for (let i = 0; i < 60 && !gone; i++) {
        await new Promise((r) => setTimeout(r, 500));
        gone = !existsSync(started.dir) && !(await accepts(started.port));
      }
      expect(gone).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
