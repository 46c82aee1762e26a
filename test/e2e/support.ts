// Running the built CLI as a child process, for end-to-end tests.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const MAIN = join(ROOT, "dist", "src", "cli", "main.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ unless it is newer than every source file. */
export function ensureBuilt(): void {
  const built = existsSync(MAIN) ? statSync(MAIN).mtimeMs : 0;
  if (built > Math.max(newestMtime(join(ROOT, "src")), newestMtime(join(ROOT, "adapters")))) return;
  execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
}

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

export function spawnCli(args: string[], env: Record<string, string>): ChildProcess & { out: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }) as ChildProcess & { out: { stdout: string; stderr: string } };
  child.out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (c: Buffer) => (child.out.stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (child.out.stderr += c.toString()));
  return child;
}

export function finished(child: ChildProcess & { out: { stdout: string; stderr: string } }, timeoutMs = 45_000): Promise<CliResult> {
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
export async function waitFor(child: ChildProcess & { out: { stdout: string; stderr: string } }, predicate: (out: { stdout: string; stderr: string }) => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(child.out)) {
    if (child.exitCode !== null) throw new Error(`exrates exited (${child.exitCode}): ${child.out.stderr.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting; stderr: ${child.out.stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
