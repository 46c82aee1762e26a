// The published tree as generations: every publish writes a complete new generation directory and
// then switches the `current` symlink with one rename(2), so a reader sees the old tree or the new
// one, never a mix, and a publish that fails or crashes part way leaves the old tree serving.
//
//   out/current -> .generations/<gen>      (replaced atomically)
//   out/v1      -> current/v1              (static, created once)
//   out/.generations/<gen>/manifest.json   (every file's size, sha256, ETag, Last-Modified, type)
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { lstat, readFile, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import { join } from "node:path";

export const GENERATIONS_DIR = ".generations";
export const CURRENT_LINK = "current";
export const MANIFEST = "manifest.json";

export interface ManifestFile {
  bytes: number;
  sha256: string;
  /** Strong ETag, quoted. */
  etag: string;
  /** ISO 8601: when the data behind the file last changed. */
  lastModified: string;
  contentType: string;
  /** Precompressed siblings (path + ".br" / ".gz"). */
  encodings: Array<"br" | "gzip">;
}

export interface ManifestBank {
  effectiveDate: string;
  /** Hash of everything the bank's files are rendered from; equal hash, same bytes. */
  inputHash: string;
  lastModified: string;
}

export interface Manifest {
  generation: string;
  publishedAt: string;
  /** Relative to the generation directory, canonical case. */
  files: Record<string, ManifestFile>;
  banks: Record<string, ManifestBank>;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function etagOf(sha256: string): string {
  return `"${Buffer.from(sha256, "hex").toString("base64url").slice(0, 27)}"`;
}

/** Writes a file and makes it durable before the generation becomes visible. */
export function writeDurable(path: string, data: Uint8Array | string): void {
  const fd = openSync(path, "w", 0o644);
  try {
    writeSync(fd, typeof data === "string" ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A new generation's name: sortable by time, unique per process. */
export function newGenerationName(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "");
  return `${stamp}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The generation `out/current` points at, with its manifest; undefined before the first publish. */
export async function readCurrentGeneration(outDir: string): Promise<{ dir: string; manifest: Manifest } | undefined> {
  let target: string;
  try {
    target = await readlink(join(outDir, CURRENT_LINK));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const dir = join(outDir, target);
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8")) as Manifest;
  return { dir, manifest };
}

/** Points `out/current` at a finished generation, atomically, and makes sure `out/v1` leads through it. */
export async function switchTo(outDir: string, generation: string): Promise<void> {
  const temp = join(outDir, `.${CURRENT_LINK}-${generation}`);
  await rm(temp, { force: true });
  await symlink(join(GENERATIONS_DIR, generation), temp);
  await rename(temp, join(outDir, CURRENT_LINK));
  const v1 = join(outDir, "v1");
  const existing = await lstat(v1).catch(() => undefined);
  if (!existing) await symlink(join(CURRENT_LINK, "v1"), v1);
  else if (!existing.isSymbolicLink())
    throw new Error(`${v1} exists and is not the link exrates manages; move it away`);
  fsyncDir(outDir);
}

/**
 * Removes generations that are neither current nor among the `keep` newest before it: readers
 * that resolved an older path a moment ago still find their files. Unfinished generations of a
 * crashed publish are removed the same way.
 */
export async function pruneGenerations(outDir: string, keep = 2): Promise<void> {
  const current = await readlink(join(outDir, CURRENT_LINK)).catch(() => undefined);
  const currentName = current?.split("/").pop();
  const root = join(outDir, GENERATIONS_DIR);
  const names = (await readdir(root).catch(() => [] as string[])).sort();
  const older = names.filter((n) => currentName !== undefined && n < currentName);
  const doomed = older.slice(0, Math.max(0, older.length - keep));
  // A generation newer than current is either being written right now or was abandoned by a crash;
  // only those older than an hour are surely abandoned.
  for (const n of names.filter((n) => currentName !== undefined && n > currentName)) {
    const st = await lstat(join(root, n)).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > 3_600_000) doomed.push(n);
  }
  for (const n of doomed) await rm(join(root, n), { recursive: true, force: true });
}
