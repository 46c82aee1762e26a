// The published tree as generations: every publish writes a complete new generation directory and
// then switches the `current` symlink with one rename(2), so a reader sees the old tree or the new
// one, never a mix, and a publish that fails or crashes part way leaves the old tree serving.
//
//   out/current -> .generations/<gen>      (replaced atomically)
//   out/v1      -> current/v1              (static, created once)
//   out/.generations/<gen>/manifest.json   (every file's size, sha256, ETag, Last-Modified, type)
//   out/.generations/<gen>/v1/Banks/<ID> -> ../../../../.shared/<ID>.<gen that rendered it>
//
// A bank's directory of Latest files is written once, into out/.shared/, and every generation that
// carries the bank unchanged links it by one relative symlink (instead of a hard link per file).
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { chmod, lstat, mkdir, open, readFile, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";

import { UserError } from "../errors.js";

export const GENERATIONS_DIR = ".generations";
export const CURRENT_LINK = "current";
export const MANIFEST = "manifest.json";
/** Pruned generations, moved out of GENERATIONS_DIR in one rename each, on their way out. */
export const PRUNED_DIR = ".pruned";
/** Banks' directories shared by the generations that link them (`<ID>.<generation that wrote it>`). */
export const SHARED_DIR = ".shared";

/** The directory of a generation shared between generations (`v1/Banks/<ID>`) that holds `path`, if any. */
export function sharedRootOf(path: string): string | undefined {
  if (!path.startsWith("v1/Banks/")) return undefined;
  const end = path.indexOf("/", 9);
  return end > 9 ? path.slice(0, end) : undefined;
}

/** The name in SHARED_DIR of `root`'s directory as `generation` writes it. */
export const sharedName = (root: string, generation: string) => `${root.split("/").pop()}.${generation}`;

/** A shared root's symlink target, relative to the generation's `v1/Banks/` where the link lives. */
export const sharedLinkTarget = (name: string) => join("..", "..", "..", "..", SHARED_DIR, name);

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
  /** How many of its Latest figures were published with a warning (absent for none): X-Rate-Warnings. */
  warnings?: number;
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

/** A file system error that names the file: a write on a full disk says where it failed. */
function naming(error: unknown, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e === "object" && e.code && !e.path) e.path = path;
  return error;
}

/** The published tree's modes, set explicitly: readable by the server and everyone, written by us only. */
export const FILE_MODE = 0o644;
export const DIR_MODE = 0o755;

/** Creates a directory of the tree and its missing parents, each DIR_MODE whatever the umask. */
export async function makeTreeDir(path: string): Promise<void> {
  // mkdir returns the first directory it created: every one from there down to `path` is new.
  const first = await mkdir(path, { recursive: true });
  if (first === undefined) return;
  for (let dir = path; ; dir = dirname(dir)) {
    await chmod(dir, DIR_MODE);
    if (dir === first || dir === dirname(dir)) break;
  }
}

/** makeTreeDir's synchronous twin, for the many small directories of a generation. */
export function makeTreeDirSync(path: string): void {
  const first = mkdirSync(path, { recursive: true });
  if (first === undefined) return;
  for (let dir = path; ; dir = dirname(dir)) {
    chmodSync(dir, DIR_MODE);
    if (dir === first || dir === dirname(dir)) break;
  }
}

/**
 * Writes a file whole and makes it durable before the generation becomes visible. writeSync may write
 * less than asked (a disk filling up): it is called again for the rest, and a write that makes no
 * progress is ENOSPC. Every error names the file. `sync: false` leaves the fsync to the caller, who
 * syncs a generation's new files together (syncFiles) before its manifest is written.
 */
export function writeDurable(path: string, data: Uint8Array | string, { sync = true } = {}): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  let fd: number;
  try {
    fd = openSync(path, "w", 0o644);
  } catch (error) {
    throw naming(error, path);
  }
  try {
    // The mode given to open is narrowed or widened by the umask; the tree's files are 0644 whatever it is.
    fchmodSync(fd, FILE_MODE);
    for (let written = 0; written < bytes.length;) {
      const n = writeSync(fd, bytes, written, bytes.length - written);
      if (n <= 0)
        throw Object.assign(new Error(`ENOSPC: no space left on device, write ${path}`), {
          code: "ENOSPC",
          syscall: "write",
          path,
        });
      written += n;
    }
    if (sync) fsyncSync(fd);
  } catch (error) {
    throw naming(error, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks a written generation before it may become current: the manifest reads back as written, and
 * every file it lists is there with its size (its compressed siblings too). Throws naming the first
 * problem. (The files and directories were synced before the manifest: syncFiles.)
 */
export function verifyGeneration(
  dir: string,
  manifest: Manifest,
  manifestText: string,
  linked: ReadonlySet<string> = new Set(),
): void {
  const fail = (what: string) => {
    throw new UserError(
      `publish stopped: generation ${manifest.generation} is incomplete (${what}); the published tree is unchanged`,
    );
  };
  if (readFileSync(join(dir, MANIFEST), "utf8") !== manifestText) fail(`${MANIFEST} does not read back as written`);
  const size = (path: string) => {
    try {
      return statSync(join(dir, path)).size;
    } catch {
      return -1;
    }
  };
  // A shared directory linked whole was found whole by the generation that wrote it, and nothing
  // writes into it after: its link is checked to lead to it.
  for (const root of linked) if (!isDirectory(join(dir, root))) fail(`${root}: its shared directory is missing`);
  for (const [path, file] of Object.entries(manifest.files)) {
    const root = sharedRootOf(path);
    if (root !== undefined && linked.has(root)) continue;
    const bytes = size(path);
    if (bytes !== file.bytes) fail(`${path}: ${bytes < 0 ? "missing" : `${bytes} of ${file.bytes} bytes`}`);
    for (const suffix of file.encodings.map((e) => (e === "br" ? ".br" : ".gz")))
      if (size(path + suffix) <= 0) fail(`${path}${suffix}: missing or empty`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** How many fsyncs run at once: the thread pool's four threads, so a flush of the disk serves several. */
const SYNC_CONCURRENCY = 4;

/**
 * Makes files (and directories: their entries) durable, several at once: the kernel's flushes of the
 * disk's cache serve every fsync waiting on them, so a generation's few hundred cost a fraction of one
 * after another. Every error names the path.
 */
export async function syncFiles(paths: Iterable<string>): Promise<void> {
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
      try {
        const handle = await open(path, "r");
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch (error) {
        throw naming(error, path);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, queue.length) }, worker));
}

/** A generation's manifest, or undefined when it is missing or does not parse (a publish cut short). */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * The newest generation at or before `before` (by name) whose manifest reads: what a publish carries
 * from when `current` is unreadable (a tree an earlier version switched after a short write).
 */
export async function lastGoodGeneration(
  outDir: string,
  before?: string,
): Promise<{ dir: string; manifest: Manifest } | undefined> {
  const root = join(outDir, GENERATIONS_DIR);
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => before === undefined || n <= before);
  for (const name of names.sort().reverse()) {
    const manifest = await readManifest(join(root, name));
    if (manifest) return { dir: join(root, name), manifest };
  }
  return undefined;
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

/** The removal of pruned generations still running in this process, per out/ directory. */
const removals = new Map<string, Promise<void>>();

/** Resolves once the pruned generations' removal started in this process has finished. */
export function prunedRemoved(outDir: string): Promise<void> {
  return removals.get(outDir) ?? Promise.resolve();
}

/**
 * Removes generations that are neither current nor among the `keep` newest before it: readers
 * that resolved an older path a moment ago still find their files. Unfinished generations of a
 * crashed publish are removed the same way. Never removed: the generation in use, and the newest one
 * whose manifest reads (the last good one, should the current one be unreadable).
 *
 * Each doomed generation leaves GENERATIONS_DIR in one rename (into PRUNED_DIR); deleting its files
 * is the long part. `background`: that deletion runs after this resolves (prunedRemoved says when it
 * is done; a publish waits for it before writing): a publish's own time ends with the switch and
 * the rename. Whatever a crash leaves in PRUNED_DIR goes with the next prune.
 */
export async function pruneGenerations(outDir: string, keep = 2, { background = false } = {}): Promise<void> {
  const current = await readlink(join(outDir, CURRENT_LINK)).catch(() => undefined);
  const currentName = current?.split("/").pop();
  const root = join(outDir, GENERATIONS_DIR);
  const names = (await readdir(root).catch(() => [] as string[])).sort();
  const older = names.filter((n) => currentName !== undefined && n < currentName);
  const lastGood = currentName === undefined ? undefined : await lastGoodGeneration(outDir, currentName);
  const goodName = lastGood?.dir.split("/").pop();
  const doomed = older.slice(0, Math.max(0, older.length - keep)).filter((n) => n !== goodName);
  // A generation newer than current is either being written right now or was abandoned by a crash;
  // only those older than an hour are surely abandoned.
  for (const n of names.filter((n) => currentName !== undefined && n > currentName)) {
    const st = await lstat(join(root, n)).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > 3_600_000) doomed.push(n);
  }
  const pruned = join(outDir, PRUNED_DIR);
  if (doomed.length) await makeTreeDir(pruned);
  for (const n of doomed) await rename(join(root, n), join(pruned, n));
  // The shared directories no generation left links (those only the doomed ones did, any a crash left).
  const unlinked = doomed.length
    ? await unlinkedShared(
        outDir,
        names.filter((n) => !doomed.includes(n)),
      )
    : [];
  if (unlinked.length) await makeTreeDir(pruned);
  for (const n of unlinked) await rename(join(outDir, SHARED_DIR, n), join(pruned, `${SHARED_DIR}${n}`));
  const removal = prunedRemoved(outDir).then(() => removePruned(pruned));
  // Never a rejection nobody waits for: what a failed removal leaves, the next prune takes.
  const settled = removal.catch(() => undefined);
  removals.set(outDir, settled);
  void settled.then(() => {
    if (removals.get(outDir) === settled) removals.delete(outDir);
  });
  if (!background) await removal;
}

/** The entries of SHARED_DIR that none of `generations` (names in GENERATIONS_DIR) links. */
async function unlinkedShared(outDir: string, generations: string[]): Promise<string[]> {
  const shared = await readdir(join(outDir, SHARED_DIR)).catch(() => [] as string[]);
  if (shared.length === 0) return [];
  const linked = new Set<string>();
  for (const name of generations) {
    const banks = join(outDir, GENERATIONS_DIR, name, "v1", "Banks");
    for (const entry of await readdir(banks, { withFileTypes: true }).catch(() => []))
      if (entry.isSymbolicLink()) {
        const target = await readlink(join(banks, entry.name)).catch(() => undefined);
        if (target !== undefined) linked.add(target.split("/").pop()!);
      }
  }
  return shared.filter((n) => !linked.has(n));
}

/** Removes every generation in PRUNED_DIR (those of this prune, and any a crash left there). */
async function removePruned(pruned: string): Promise<void> {
  for (const n of await readdir(pruned).catch(() => [] as string[])) await removeGeneration(join(pruned, n));
}

/** How many files a removal unlinks before it lets the event loop run (a server may share it). */
const REMOVE_BATCH = 256;

/**
 * Removes a generation directory. Its manifest says what it holds, so the files are unlinked by name
 * and the directories removed deepest first, without listing and stat-ing every entry; whatever is
 * left (a generation cut short, files the manifest does not list) goes by a recursive removal after.
 */
export async function removeGeneration(dir: string): Promise<void> {
  const manifest = await readManifest(dir);
  if (manifest) {
    const dirs = new Set<string>();
    // A shared directory's link goes, never the files through it (other generations link them too).
    const links = new Set<string>();
    for (const path of Object.keys(manifest.files)) {
      const root = sharedRootOf(path);
      if (root === undefined || links.has(root)) continue;
      let link = false;
      try {
        link = lstatSync(join(dir, root)).isSymbolicLink();
      } catch {
        // Missing: nothing to remove through it.
      }
      if (link) {
        links.add(root);
        unlinkSync(join(dir, root));
      }
    }
    let count = 0;
    for (const [path, file] of Object.entries(manifest.files)) {
      const root = sharedRootOf(path);
      if (root !== undefined && links.has(root)) continue;
      for (let d = dirname(path); d !== "."; d = dirname(d)) dirs.add(d);
      for (const suffix of ["", ...(file.encodings ?? []).map((e) => (e === "br" ? ".br" : ".gz"))]) {
        try {
          unlinkSync(join(dir, path + suffix));
        } catch {
          // Missing already, or not removable: the recursive removal below has the last word.
        }
        if (++count % REMOVE_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(dir, d));
      } catch {
        // Not empty (files the manifest does not list): left to the recursive removal.
      }
    }
  }
  await rm(dir, { recursive: true, force: true });
}
