// One publisher at a time per out/ directory (the daemon and a manual `exrates publish` may overlap):
// an exclusive lock file holding the owner's pid; a lock left by a dead process is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Whether a process with this id exists (EPERM: it does, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function withPublishLock<T>(outDir: string, fn: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const path = join(outDir, ".publish.lock");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(path, "utf8").trim() || "0");
      if (!owner || !alive(owner)) {
        rmSync(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another publish (pid ${owner}) holds ${path}`, { cause: error });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}
