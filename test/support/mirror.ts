// The feed mirror tool that comes with the recordings (see feeds.ts) as a child process on a free port, for
// end-to-end tests without internet. The recordings' index is filtered to entries with a real URL
// (a few recordings saved from other projects carry a placeholder the mirror cannot parse).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// EXRATES_SHARED_FEEDS names the recordings elsewhere (as in feeds.ts); the tool is beside them.
export const FEEDS = process.env.EXRATES_SHARED_FEEDS ?? resolve(import.meta.dirname, "../../../shared/feeds");
export const SHARED = resolve(FEEDS, "..");
export const MIRROR_TOOL = join(SHARED, "tools", "feed-mirror.mjs");
export const haveMirror = existsSync(MIRROR_TOOL) && existsSync(join(FEEDS, "index.json"));

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once("error", rej);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => res(port));
    });
  });
}

export interface Mirror {
  url: string;
  child: ChildProcess;
  /** The recordings served so far, in order: "GET /host/path?query" and the recording's file. */
  served(): Array<{ request: string; file: string }>;
  stop(): Promise<void>;
}

/** Starts the mirror over the recordings of `banks` (all when omitted). */
export async function startMirror(banks?: string[]): Promise<Mirror> {
  const dir = mkdtempSync(join(tmpdir(), "exrates-feeds-"));
  const index = (
    JSON.parse(readFileSync(join(FEEDS, "index.json"), "utf8")) as Array<{ bank: string; url: string }>
  ).filter((e) => /^https?:\/\//.test(e.url) && (!banks || banks.includes(e.bank)));
  writeFileSync(join(dir, "index.json"), JSON.stringify(index));
  for (const name of readdirSync(FEEDS)) if (name !== "index.json") symlinkSync(join(FEEDS, name), join(dir, name));
  const port = await freePort();
  const child = spawn(process.execPath, [MIRROR_TOOL, "--port", String(port), "--feeds", dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((res, rej) => {
    let out = "";
    const timer = setTimeout(() => rej(new Error(`feed mirror did not start: ${out}`)), 10_000);
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("feed mirror on")) {
        clearTimeout(timer);
        res();
      }
    });
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => rej(new Error(`feed mirror exited (${code}): ${out}`)));
  });
  // The tool logs one line per answer: "200 GET /host/path?query -> BANK/001.xml".
  let log = "";
  child.stdout.on("data", (c: Buffer) => (log += c.toString()));
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    served: () => [...log.matchAll(/^\d{3} (\S+ \S+) -> (\S+)$/gm)].map((m) => ({ request: m[1]!, file: m[2]! })),
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once("exit", r));
        process.kill(child.pid, "SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
