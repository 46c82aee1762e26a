// Running the built CLI as a child process, for end-to-end tests (dist/ is built by test/support/build.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";

import { addDays, weekday } from "../../src/feed/dates.js";
import { CLI } from "../support/cli.js";

const ROOT = resolve(import.meta.dirname, "../..");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string>, timeoutMs = 45_000): Promise<CliResult> {
  const child = spawnCli(args, env);
  return finished(child, timeoutMs);
}

export function spawnCli(
  args: string[],
  env: Record<string, string>,
): ChildProcess & { out: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }) as ChildProcess & { out: { stdout: string; stderr: string } };
  child.out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (c: Buffer) => (child.out.stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (child.out.stderr += c.toString()));
  return child;
}

export function finished(
  child: ChildProcess & { out: { stdout: string; stderr: string } },
  timeoutMs = 45_000,
): Promise<CliResult> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      if (child.pid) process.kill(child.pid, "SIGKILL");
      rej(new Error(`exrates did not finish in ${timeoutMs} ms: ${child.out.stderr.slice(-2000)}`));
    }, timeoutMs);
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      res({ code, signal, ...child.out });
    };
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode, child.signalCode);
    child.once("exit", done);
  });
}

/** Resolves when `predicate(stdout, stderr)` holds, polling the child's output. */
export async function waitFor(
  child: ChildProcess & { out: { stdout: string; stderr: string } },
  predicate: (out: { stdout: string; stderr: string }) => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(child.out)) {
    if (child.exitCode !== null)
      throw new Error(`exrates exited (${child.exitCode}): ${child.out.stderr.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting; stderr: ${child.out.stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A CNB-shaped feed answering daily-year?year=Y with USD and JPY (per 100) for every weekday up to 2026-11-20, slowly. */
export const LAST = "2026-11-20";
export const usdRate = (d: string) => `20.${d.slice(5, 7)}${d.slice(8, 10)}1`;
export const jpyRate = (d: string) => `13.${d.slice(2, 4)}${d.slice(8, 10)}3`;
export function startSlowMirror(delayMs: number): Promise<{ url: string; server: Server; requests: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const u = new URL(req.url!, "http://x");
    const year = Number(u.searchParams.get("year"));
    const body =
      u.pathname === "/api.cnb.cz/cnbapi/exrates/daily-year" && year
        ? (() => {
            const rates: string[] = [];
            for (let d = `${year}-01-01`; d <= `${year}-12-31` && d <= LAST; d = addDays(d, 1)) {
              if (weekday(d) > 5) continue;
              rates.push(
                `{"validFor":"${d}","currencyCode":"USD","amount":1,"rate":${usdRate(d)}}`,
                `{"validFor":"${d}","currencyCode":"JPY","amount":100,"rate":${jpyRate(d)}}`,
              );
            }
            return `{"rates":[${rates.join(",")}]}`;
          })()
        : undefined;
    setTimeout(() => {
      if (body === undefined) res.writeHead(404, { "content-type": "text/plain" }).end("no such feed\n");
      else res.writeHead(200, { "content-type": "application/json" }).end(body);
    }, delayMs);
  });
  return new Promise((res) =>
    server.listen(0, "127.0.0.1", () =>
      res({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, requests: () => count }),
    ),
  );
}
