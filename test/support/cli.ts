// Runs the built `exrates` binary, as a user would: at once (`exrates`), or as a child process that
// keeps running (`spawnCli`, `cli`), watched through what it writes and stopped by its process id.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/src/cli/main.js", import.meta.url));
const ROOT = resolve(import.meta.dirname, "../..");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function exrates(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `exrates` and everything it has written so far. */
export type CliChild = ChildProcess & { out: { stdout: string; stderr: string } };

/** Runs the CLI to its end without blocking this process (a server of the test may answer it). */
export function cli(args: string[], env: Record<string, string>, timeoutMs = 45_000): Promise<CliResult> {
  const child = spawnCli(args, env);
  return finished(child, timeoutMs);
}

/** Starts the CLI with only PATH, HOME and LOG_LEVEL=info of this process's environment, plus `env`. */
export function spawnCli(args: string[], env: Record<string, string>): CliChild {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }) as CliChild;
  child.out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (c: Buffer) => (child.out.stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (child.out.stderr += c.toString()));
  return child;
}

/** Resolves when the child has exited; past `timeoutMs` it is killed (by its pid) and this rejects. */
export function finished(child: CliChild, timeoutMs = 45_000): Promise<CliResult> {
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
  child: CliChild,
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
