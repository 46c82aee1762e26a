// Where the publisher writes generations: a "tree target". The local directory (src/publish/tree.ts:
// generation directories and the `current` symlink) is the default; an S3-compatible bucket
// (src/publish/s3-target.ts) is the other. Both keep the same contract: a generation is written
// whole, its manifest last, then one atomic switch makes it current; older generations are pruned
// keeping a few for readers in flight.
import { chmodSync, copyFileSync, linkSync, readlinkSync, symlinkSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

import {
  FILE_MODE,
  GENERATIONS_DIR,
  MANIFEST,
  SHARED_DIR,
  lastGoodGeneration,
  makeTreeDir,
  makeTreeDirSync,
  prunedRemoved,
  pruneGenerations,
  readCurrentGeneration,
  sharedLinkTarget,
  sharedName,
  sharedRootOf,
  switchTo,
  syncFiles,
  verifyGeneration,
  writeDurable,
  type Manifest,
  type ManifestFile,
} from "./tree.js";
import type { PhaseTimer } from "./phases.js";

/** A file's bytes and its precompressed siblings, keyed by the suffix the local tree gives them. */
export interface FileBodies {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export const SUFFIX = { br: ".br", gzip: ".gz" } as const;

/** The generation being written. Nothing of it is visible to readers until `switchTo`. */
export interface GenerationSink {
  /** Stores a new file (and its siblings) under `path`, relative to the generation. */
  write(path: string, file: ManifestFile, bodies: FileBodies): Promise<void>;
  /** Takes a file of the current generation over unchanged. */
  carry(path: string, file: ManifestFile): Promise<void>;
  /**
   * Takes a directory of the current generation over whole (`v1/Banks/<ID>`: every file the current
   * manifest lists under it, `files`), where the target can do that at once; false: carry each file.
   */
  carryDir?(root: string, files: ReadonlyArray<readonly [string, ManifestFile]>): Promise<boolean>;
  /**
   * Writes the manifest, durably: the generation is complete (not yet current). `beside`: files written
   * next to it, not listed in it (its signature and the public keys, src/publish/signing.ts).
   */
  finish(manifest: Manifest, beside?: Record<string, string>): Promise<void>;
}

/** The current generation, as the publisher sees it before writing the next one. */
export interface CurrentGeneration {
  manifest: Manifest;
  /** A file of it as text (the previous Latest.json, for the events), undefined when missing. */
  readText: (path: string) => Promise<string | undefined>;
}

export interface TreeTarget {
  /** A local directory where the publish lock (src/publish/lock.ts) lives. */
  readonly lockDir: string;
  /** What to name in messages: a directory or s3://bucket/prefix. */
  readonly description: string;
  /** Checks the target can be written (creates the directory; finds the bucket). */
  prepare(): Promise<void>;
  current(): Promise<CurrentGeneration | undefined>;
  /** `timer`, when given, is told where the sink's time goes (its links, fsyncs, manifest). */
  begin(generation: string, previous: CurrentGeneration | undefined, timer?: PhaseTimer): Promise<GenerationSink>;
  /** Makes a finished generation current, atomically. */
  switchTo(generation: string): Promise<void>;
  /** Removes generations neither current nor among the `keep` before it (and what only they used). */
  prune(keep: number): Promise<void>;
  /** Removes what a publish that failed before its switch wrote of its generation (frees a full disk). */
  discard?(generation: string): Promise<void>;
}

/** The out/ directory with generation directories and the `current` symlink (src/publish/tree.ts). */
export class LocalTreeTarget implements TreeTarget {
  readonly lockDir: string;
  readonly description: string;

  constructor(readonly outDir: string) {
    this.lockDir = outDir;
    this.description = outDir;
  }

  async prepare(): Promise<void> {
    await makeTreeDir(join(this.outDir, GENERATIONS_DIR));
  }

  async current(): Promise<(CurrentGeneration & { dir: string }) | undefined> {
    // A current generation whose manifest does not read (switched by an earlier version after a short
    // write): the publish carries from the last good one, and its switch repairs the tree.
    const current = await readCurrentGeneration(this.outDir).catch(() => lastGoodGeneration(this.outDir));
    if (!current) return undefined;
    return {
      ...current,
      readText: (path) => readFile(join(current.dir, path), "utf8").catch(() => undefined),
    };
  }

  async begin(
    generation: string,
    previous: CurrentGeneration | undefined,
    timer?: PhaseTimer,
  ): Promise<GenerationSink> {
    const dir = join(this.outDir, GENERATIONS_DIR, generation);
    const sharedDir = join(this.outDir, SHARED_DIR);
    // The previous publish's pruned generations are gone before this one takes space.
    await prunedRemoved(this.outDir);
    await makeTreeDir(dir);
    // The directory `current` resolved to (its name is the generation's, but the link is the truth).
    const fromDir = (previous as { dir?: string } | undefined)?.dir;
    // The generation's directories (each made once), and the files written here, not yet synced. Files
    // linked from the previous generation are durable already: only their directory entries need a sync.
    const dirs = new Set<string>([dir]);
    const unsynced: string[] = [];
    const linkOrCopy = linkOrCopyInto(unsynced);
    // Synchronous: a generation's few hundred directories and links are quick calls, each of which
    // would cost more as a round trip through the thread pool than it takes.
    const dirFor = (full: string) => {
      const parent = dirname(full);
      if (dirs.has(parent)) return;
      makeTreeDirSync(parent);
      for (let d = parent; d.length > dir.length && !dirs.has(d); d = dirname(d)) dirs.add(d);
    };
    const shared = sharedRoots({ dir, sharedDir, generation, fromDir, dirs, dirFor });
    const timed = <T>(phase: string, work: () => Promise<T>) => (timer ? timer.time(phase, work) : work());
    return {
      write: (path, _file, bodies) =>
        settle(() => {
          const full = join(dir, path);
          shared.open(path);
          dirFor(full);
          for (const [suffix, body] of [
            ["", bodies.identity],
            [SUFFIX.br, bodies.br],
            [SUFFIX.gzip, bodies.gzip],
          ] as const) {
            if (!body) continue;
            writeDurable(full + suffix, body, { sync: false });
            unsynced.push(full + suffix);
          }
        }),
      // Hard-links a file (and its siblings) from the previous generation; copies across devices.
      carry: (path, file) =>
        settle(() => {
          if (!fromDir) throw new Error(`nothing to carry ${path} from`);
          const target = join(dir, path);
          shared.open(path);
          dirFor(target);
          for (const s of ["", ...file.encodings.map((e) => SUFFIX[e])])
            linkOrCopy(join(fromDir, path + s), target + s);
        }),
      carryDir: (root) => shared.carry(root),
      async finish(manifest, beside = {}) {
        for (const [name, text] of Object.entries(beside)) {
          writeDurable(join(dir, name), text, { sync: false });
          unsynced.push(join(dir, name));
        }
        // Every file and directory entry durable before the manifest: a generation whose manifest
        // reads is whole, even after a crash (lastGoodGeneration counts on it).
        await timed("fsync files", () => syncFiles(unsynced));
        await timed("fsync directories", () => syncFiles(dirs));
        const text = `${JSON.stringify(manifest, null, 2)}\n`;
        await timed("manifest", async () => {
          writeDurable(join(dir, MANIFEST), text);
          // The generation's own entry in .generations too, before the switch names it.
          await syncFiles([dir, dirname(dir)]);
        });
        // Only a generation found whole may become current.
        await timed("check", () => Promise.resolve(verifyGeneration(dir, manifest, text, shared.linked)));
      },
    };
  }

  switchTo(generation: string): Promise<void> {
    return switchTo(this.outDir, generation);
  }

  prune(keep: number): Promise<void> {
    return pruneGenerations(this.outDir, keep, { background: true });
  }

  async discard(generation: string): Promise<void> {
    // rm never follows the links: the shared directories this generation made go by their names.
    await rm(join(this.outDir, GENERATIONS_DIR, generation), { recursive: true, force: true });
    const shared = join(this.outDir, SHARED_DIR);
    for (const name of await readdir(shared).catch(() => [] as string[]))
      if (name.endsWith(`.${generation}`)) await rm(join(shared, name), { recursive: true, force: true });
  }
}

/**
 * The shared roots (`v1/Banks/<ID>`, src/publish/tree.ts) of a generation being written: `open` makes a
 * root this generation writes into a shared directory of its own, linked; `carry` takes the previous
 * generation's link over; `linked` holds the roots carried whole.
 */
function sharedRoots(g: {
  dir: string;
  sharedDir: string;
  generation: string;
  fromDir: string | undefined;
  dirs: Set<string>;
  dirFor: (full: string) => void;
}) {
  const linked = new Set<string>();
  const made = new Set<string>();
  return {
    linked,
    open(path: string): void {
      const root = sharedRootOf(path);
      if (root === undefined || made.has(root)) return;
      if (linked.has(root)) throw new Error(`${root} is linked whole from the previous generation`);
      const name = sharedName(root, g.generation);
      makeTreeDirSync(join(g.sharedDir, name));
      g.dirs.add(g.sharedDir);
      const at = join(g.dir, root);
      g.dirFor(at);
      symlinkSync(sharedLinkTarget(name), at);
      made.add(root);
    },
    // The previous generation's link, taken over: hard-linked (Linux links the symlink itself: no new
    // inode, as cheap as a file's link), else made again with its target. A directory of an earlier
    // layout (hard links per file) is carried file by file (false).
    carry(root: string): Promise<boolean> {
      const { fromDir } = g;
      if (!fromDir || made.has(root) || linked.has(root)) return Promise.resolve(false);
      const from = join(fromDir, root);
      const at = join(g.dir, root);
      return settle(() => {
        g.dirFor(at);
        try {
          linkSync(from, at);
        } catch {
          symlinkSync(readlinkSync(from), at);
        }
        linked.add(root);
      }).then(
        () => true,
        () => false,
      );
    },
  };
}

/** Runs synchronous work as a promise: what it throws, rejected. */
function settle(work: () => void): Promise<void> {
  try {
    work();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Hard-links a durable file into the new generation; copies it (to be synced) across devices. */
function linkOrCopyInto(unsynced: string[]) {
  return (from: string, to: string) => {
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
      chmodSync(to, FILE_MODE);
      unsynced.push(to);
    }
  };
}

/** A target given as a directory (what callers passed before targets existed) or as a target. */
export function asTreeTarget(target: string | TreeTarget): TreeTarget {
  return typeof target === "string" ? new LocalTreeTarget(target) : target;
}
