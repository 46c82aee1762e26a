// writeSync may write less than it is given (a disk filling up): writeDurable writes the rest, and a
// write that makes no progress is ENOSPC naming the file, never a truncated file taken for whole.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const disk = vi.hoisted((): { mode: "normal" | "short" | "full"; calls: number } => ({ mode: "normal", calls: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const writeSync = (fd: number, buffer: Uint8Array, offset = 0, length = buffer.length - offset): number => {
    disk.calls++;
    if (disk.mode === "normal") return fs.writeSync(fd, buffer, offset, length);
    // At most 7 bytes per call; once full, nothing at all.
    if (disk.mode === "full" && disk.calls > 2) return 0;
    return fs.writeSync(fd, buffer, offset, Math.min(length, 7));
  };
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

const { writeDurable } = await import("../../src/publish/tree.js");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-short-"));
  disk.calls = 0;
});
afterEach(() => {
  disk.mode = "normal";
  rmSync(dir, { recursive: true, force: true });
});

describe("writeDurable", () => {
  it("writes the rest after a short write", () => {
    disk.mode = "short";
    const text = `{"generation":"g1","files":{}}\n`;
    writeDurable(join(dir, "manifest.json"), text);
    expect(readFileSync(join(dir, "manifest.json"), "utf8")).toBe(text);
    expect(disk.calls).toBe(Math.ceil(text.length / 7));
  });

  it("a write that makes no progress is ENOSPC naming the file", () => {
    disk.mode = "full";
    const path = join(dir, "manifest.json");
    expect(() => writeDurable(path, "x".repeat(100))).toThrow(
      expect.objectContaining({ code: "ENOSPC", syscall: "write", path }) as Error,
    );
  });
});
