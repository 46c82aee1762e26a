// Renders every bank's Bank document and latest rates in four formats into a new generation of the
// tree, re-rendering only banks whose data changed (the others are carried over from the previous
// generation), then switches to it atomically. Where the generations live is the tree target's
// business (src/publish/target.ts): the out/ directory, or a bucket.
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

import { recordPublications } from "../events/publication.js";
import { nextPublicationDay } from "../calendar/calendar.js";
import { frequencyOf, toBankResource } from "../feed/adapter.js";
import { frequencySourceOf, publicIdOf } from "../feed/sources.js";
import { zonedInstant } from "../schedule/time.js";
import { timedPublish } from "../metrics.js";
import type { Store } from "../store/database.js";
import type {
  BankEntry,
  BankDescriptor,
  BankResource,
  Frequency,
  IsoDate,
  LatestRatesDocument,
  NextPublication,
} from "../types.js";
import { latestDocument } from "./document.js";
import { renderCsv } from "./render-csv.js";
import { renderBank, renderBankList, renderJson, type BankListEntry } from "./render-json.js";
import { renderXlsx } from "./render-xlsx.js";
import { renderXml } from "./render-xml.js";
import { withPublishLock } from "./lock.js";
import { PhaseTimer, type PublishTimings } from "./phases.js";
import { signatureFiles, UNSIGNED, type PublicationSigning } from "./signing.js";
import {
  asTreeTarget,
  type CurrentGeneration,
  type FileBodies,
  type GenerationSink,
  type TreeTarget,
} from "./target.js";
import { etagOf, newGenerationName, sha256Hex, sharedRootOf, type Manifest, type ManifestFile } from "./tree.js";
import { EXCHANGE_RATES_XSD, XSD_PATH } from "./xsd.js";

/** Bump when a renderer's output changes, so every bank is re-rendered once. */
const RENDER_VERSION = 1;
/** The schema's own date, its Last-Modified. */
const XSD_LAST_MODIFIED = "2026-01-01T00:00:00.000Z";

export const CONTENT_TYPES = {
  json: "application/json; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xsd: "application/xml; charset=utf-8",
} as const;

/** A bank's Latest file: under `{Frequency}Rates`, DailyRates for a daily source. */
export const latestPath = (bankId: string, ext: "json" | "xml" | "csv" | "xlsx", frequency: Frequency = "Daily") =>
  `v1/Banks/${publicIdOf(bankId)}/${frequency}Rates/Latest.${ext}`;
export const bankPath = (bankId: string) => `v1/banks/${bankId}.json`;
export const BANK_LIST_PATH = "v1/banks.json";

export interface PublishOptions {
  /** Re-render only these banks (others carried over); default: every bank whose data changed. */
  only?: string[];
  now?: Date;
  /** How many older generations to keep for readers mid-way. */
  keep?: number;
  /**
   * The publication keys: the manifest is signed with the active one (src/publish/signing.ts). Required:
   * UNSIGNED only where the operator turned signing off (`publicationSigning(config)` gives either).
   */
  signing: PublicationSigning;
  /** Filled with the milliseconds each phase took (render, compress, links, fsyncs, switch...). */
  timings?: PublishTimings;
}

export interface PublishResult {
  generation: string;
  rendered: string[];
  carried: string[];
  /** Banks without any stored rate (nothing to publish). */
  empty: string[];
  files: number;
}

/** A file to publish, rendered. */
interface RenderedFile {
  path: string;
  data: Buffer;
  contentType: string;
  lastModified: string;
  /** With gzip and brotli siblings (not the XLSX: a zip already). */
  compress: boolean;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli's quality for the precompressed siblings: 10, not the maximum 11. Measured on a tree of 106
 * banks (every text file): 11 took 1,680 ms of CPU for 168,498 bytes, 10 takes 827 ms for 172,593 (2.4%
 * more); `v1/banks.json`, compressed again at every publish, 91 ms -> 30 ms for 91 more bytes. 9 and
 * below cost 11-14% more bytes. See docs/DECISIONS.md.
 */
const BROTLI_QUALITY = 10;

/**
 * The precompressed siblings, in the thread pool (several files' at once, across the cores). The
 * asynchronous zlib runs the same encoder with the same parameters over the whole buffer as the
 * synchronous one: the same bytes (test/publish/compress.test.ts).
 */
export async function compressSiblings(data: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
    gzipAsync(data, { level: 9 }),
  ]);
  return { br, gzip: gz };
}

/**
 * Builds the manifest of a generation while its files go to the target's sink. A file is listed at
 * once, in the order given; its siblings are compressed in the thread pool while the publish goes on
 * (reading, rendering and carrying the next banks on the main thread), and it is written when they are
 * done: `settled` waits for every write.
 */
class GenerationWriter {
  readonly files: Manifest["files"] = {};
  /** Writes under way (each with a handler: a failure is reported by `settled`, never unhandled). */
  private readonly pending: Array<Promise<void>> = [];
  /** Siblings started before their file was written (compressEarly), by the file's bytes. */
  private readonly early = new Map<Buffer, Promise<{ br: Buffer; gzip: Buffer }>>();
  /** The previous generation's paths under each shared root (v1/Banks/<ID>). */
  private readonly previousRoots = new Map<string, Set<string>>();
  constructor(
    private readonly sink: GenerationSink,
    private readonly timer: PhaseTimer,
    /** The previous generation's files: one rendered to the same bytes is carried, not written again. */
    private readonly previous: Manifest["files"] = {},
  ) {
    for (const path of Object.keys(previous)) {
      const root = sharedRootOf(path);
      if (root === undefined) continue;
      let paths = this.previousRoots.get(root);
      if (!paths) this.previousRoots.set(root, (paths = new Set()));
      paths.add(path);
    }
  }

  /** Lists rendered files in the manifest in the order given and starts writing them (with siblings). */
  async write(rendered: RenderedFile[]): Promise<void> {
    for (const f of rendered) {
      const file = entryOf(f);
      if (sameFile(this.previous[f.path], file)) await this.carry(f.path, this.previous[f.path]!);
      else {
        this.files[f.path] = file;
        const written = this.writeFile(f, file);
        written.catch(() => undefined);
        this.pending.push(written);
      }
    }
  }

  /** Starts compressing a file that `write` will be given later (unless it is carried then). */
  compressEarly(f: RenderedFile): void {
    if (!f.compress || sameFile(this.previous[f.path], entryOf(f))) return;
    const siblings = this.compress(f.data);
    siblings.catch(() => undefined);
    this.early.set(f.data, siblings);
  }

  private compress(data: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
    return this.timer.time("compress (thread pool)", () => compressSiblings(data));
  }

  private async writeFile(f: RenderedFile, file: ManifestFile): Promise<void> {
    const bodies: FileBodies = f.compress
      ? { identity: f.data, ...(await (this.early.get(f.data) ?? this.compress(f.data))) }
      : { identity: f.data };
    await this.timer.time("write", () => this.sink.write(f.path, file, bodies));
  }

  /** Waits for every write started; throws the first failure. */
  async settled(): Promise<void> {
    const results = await Promise.allSettled(this.pending);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** Takes a file (and its siblings) over from the previous generation. */
  async carry(path: string, entry: Manifest["files"][string]): Promise<void> {
    await this.timer.time("links", () => this.sink.carry(path, entry));
    this.files[path] = entry;
  }

  /**
   * Takes files over from the previous generation, listed in the order given: a shared root whose
   * files are all among them by one link where the target can (its files are the previous
   * generation's, whole), the rest file by file.
   */
  async carryAll(paths: string[]): Promise<void> {
    const linked = new Set<string>();
    if (this.sink.carryDir)
      for (const root of new Set(paths.map(sharedRootOf))) {
        const before = root === undefined ? undefined : this.previousRoots.get(root);
        if (!root || !before) continue;
        const under = paths.filter((p) => sharedRootOf(p) === root);
        if (under.length !== before.size || !under.every((p) => before.has(p))) continue;
        const files = under.map((p) => [p, this.previous[p]!] as const);
        if (await this.timer.time("links", () => this.sink.carryDir!(root, files))) linked.add(root);
      }
    for (const path of paths) {
      const root = sharedRootOf(path);
      if (root !== undefined && linked.has(root)) this.files[path] = this.previous[path]!;
      else await this.carry(path, this.previous[path]!);
    }
  }

  finish(manifest: Manifest, beside?: Record<string, string>): Promise<void> {
    return this.sink.finish(manifest, beside);
  }
}

/** A rendered file's manifest entry. */
function entryOf(f: RenderedFile): ManifestFile {
  const sha256 = sha256Hex(f.data);
  const encodings: Array<"br" | "gzip"> = f.compress ? ["br", "gzip"] : [];
  const { contentType, lastModified } = f;
  return { bytes: f.data.length, sha256, etag: etagOf(sha256), lastModified, contentType, encodings };
}

/** The same file as before: same bytes, dates, type and siblings (its manifest entry unchanged). */
function sameFile(before: ManifestFile | undefined, file: ManifestFile): boolean {
  return (
    before !== undefined &&
    before.sha256 === file.sha256 &&
    before.bytes === file.bytes &&
    before.lastModified === file.lastModified &&
    before.contentType === file.contentType &&
    before.etag === file.etag &&
    before.encodings.join() === file.encodings.join()
  );
}

/**
 * The publication after the newest one stored, by the bank's calendar: a function of the data, so the
 * same rates render the same bytes (null for a historical-only source).
 */
function nextPublication(bank: BankDescriptor, newest: IsoDate): NextPublication | null {
  // Asked of every bank at every publish: kept per descriptor until its newest date changes.
  const known = nextPublications.get(bank);
  if (known?.newest === newest) return known.next;
  const next = findNextPublication(bank, newest);
  nextPublications.set(bank, { newest, next });
  return next;
}

const nextPublications = new WeakMap<BankDescriptor, { newest: IsoDate; next: NextPublication | null }>();

function findNextPublication(bank: BankDescriptor, newest: IsoDate): NextPublication | null {
  const date = bank.historicalOnly ? undefined : nextPublicationDay(bank, newest);
  if (!date) return null;
  const at = zonedInstant(date, bank.dailyUpdateTime, bank.timeZone).toISOString();
  return { date, localTime: bank.dailyUpdateTime, timeZone: bank.timeZone, at };
}

/** What a bank's files are rendered from, and its hash; undefined for a bank without rates. */
async function bankInput(store: Store, adapter: BankEntry) {
  const doc = await latestDocument(store, adapter.bank);
  if (!doc) return undefined;
  const resource = {
    ...toBankResource(adapter.bank),
    nextPublication: nextPublication(adapter.bank, doc.effectiveDate),
  };
  const inputHash = sha256Hex(JSON.stringify({ RENDER_VERSION, doc, resource }));
  return { doc, resource, inputHash };
}

/** A bank's files, rendered: its Bank document and its Latest in four formats (no XLSX siblings). */
async function renderBankFiles(
  doc: LatestRatesDocument,
  resource: BankResource,
  latestOf: (ext: "json" | "xml" | "csv" | "xlsx") => string,
  ownBank = true,
): Promise<RenderedFile[]> {
  const lastModified = doc.publishedAt;
  const text = (path: string, data: Buffer, contentType: string) => ({
    path,
    data,
    contentType,
    lastModified,
    compress: true,
  });
  return [
    ...(ownBank ? [text(bankPath(doc.bankId), renderBank(resource), CONTENT_TYPES.json)] : []),
    text(latestOf("json"), renderJson(doc), CONTENT_TYPES.json),
    text(latestOf("xml"), renderXml(doc), CONTENT_TYPES.xml),
    text(latestOf("csv"), renderCsv(doc), CONTENT_TYPES.csv),
    {
      path: latestOf("xlsx"),
      data: await renderXlsx(doc, resource.name[0]?.name ?? doc.bankId),
      contentType: CONTENT_TYPES.xlsx,
      lastModified,
      compress: false,
    },
  ];
}

/** Publishes to `target`: an out/ directory (as callers gave it before targets), or a tree target. */
export async function publish(
  store: Store,
  adapters: readonly BankEntry[],
  target: string | TreeTarget,
  options: PublishOptions,
): Promise<PublishResult> {
  // Enforced here, where generations are written, for callers that are not type-checked too.
  if ((options as Partial<PublishOptions> | undefined)?.signing === undefined)
    throw new Error("publish: no signing given (the publication keys, or UNSIGNED when signing is turned off)");
  const tree = asTreeTarget(target);
  await tree.prepare();
  return timedPublish(() => publishLocked(store, adapters, tree, options));
}

async function publishLocked(
  store: Store,
  adapters: readonly BankEntry[],
  target: TreeTarget,
  options: PublishOptions,
): Promise<PublishResult> {
  const timer = new PhaseTimer(options.timings);
  return withPublishLock({ outDir: target.lockDir, store }, async () => {
    const previous = await timer.time("current", () => target.current());
    const generation = newGenerationName(options.now);
    let written: { manifest: Manifest; renderedDocs: LatestRatesDocument[]; result: PublishResult };
    try {
      written = await writeGeneration(store, adapters, target, generation, previous, options, timer);
    } catch (error) {
      // Nothing of it is current: what was written goes (a full disk gets its space back).
      await target.discard?.(generation).catch(() => undefined);
      throw error;
    }
    const { manifest, renderedDocs, result } = written;
    await timer.time("switch", () => target.switchTo(generation));
    // Only now can a subscriber told of new rates read them (src/events/publication.ts).
    await timer.time("events", () =>
      recordPublications(store, {
        readPrevious: previous?.readText,
        generation,
        docs: renderedDocs,
        latestPath: (doc, ext) => latestPath(doc.bankId, ext, doc.frequency),
      }),
    );
    await timer.time("prune", () => target.prune(options.keep ?? 2));
    result.files = Object.keys(manifest.files).length;
    return result;
  });
}

/** A bank's files as a generation takes them: carried (no `render`), or rendered anew. */
interface PlannedBank {
  paths: string[];
  render?: () => Promise<RenderedFile[]>;
}

/**
 * Reads every bank's inputs (the store, once a bank) and decides which banks are rendered anew and which
 * carried; their manifest entries, the list's entries and the result, in the banks' order.
 */
async function planBanks(
  store: Store,
  adapters: readonly BankEntry[],
  generation: string,
  previous: CurrentGeneration | undefined,
  options: PublishOptions,
  timer: PhaseTimer,
) {
  const only = options.only ? new Set(options.only.map((id) => id.toUpperCase())) : undefined;

  const banks: Manifest["banks"] = {};
  const list: BankListEntry[] = [];
  const result: PublishResult = { generation, rendered: [], carried: [], empty: [], files: 0 };
  /** The re-rendered banks' documents, for the events once the switch is done. */
  const renderedDocs: LatestRatesDocument[] = [];

  const plan: PlannedBank[] = [];
  for (const adapter of [...adapters].sort((a, b) => a.bank.id.localeCompare(b.bank.id))) {
    const id = adapter.bank.id;
    const frequency = frequencyOf(adapter.bank);
    const before = previous?.manifest.banks[id];
    const latestOf = (e: "json" | "xml" | "csv" | "xlsx") => latestPath(id, e, frequency);
    // A bank's second table (NBP's weekly) has no Bank document or list entry of its own: its bank's lists it.
    const ownBank = frequencySourceOf(id) === undefined;
    const paths = [...(ownBank ? [bankPath(id)] : []), ...(["json", "xml", "csv", "xlsx"] as const).map(latestOf)];
    const carriable = before && previous && paths.every((p) => previous.manifest.files[p]);
    if (only && !only.has(id)) {
      if (carriable) {
        plan.push({ paths });
        banks[id] = before;
        if (ownBank)
          list.push({ id, name: toBankResource(adapter.bank).name, latestEffectiveDate: before.effectiveDate });
        result.carried.push(id);
      }
      continue;
    }
    const input = await timer.time("read", () => bankInput(store, adapter));
    if (!input) {
      result.empty.push(id);
      continue;
    }
    const { doc, resource, inputHash } = input;
    const lastModified = doc.publishedAt;
    if (carriable && before.inputHash === inputHash) {
      plan.push({ paths });
      banks[id] = before;
      result.carried.push(id);
    } else {
      plan.push({ paths, render: () => renderBankFiles(doc, resource, latestOf, ownBank) });
      const warned = doc.rates.filter((r) => r.warning !== undefined).length;
      banks[id] = {
        effectiveDate: doc.effectiveDate,
        inputHash,
        lastModified,
        ...(warned ? { warnings: warned } : {}),
      };
      result.rendered.push(id);
      renderedDocs.push(doc);
    }
    if (ownBank) list.push({ id, name: resource.name, latestEffectiveDate: doc.effectiveDate });
  }

  return { plan, banks, list, result, renderedDocs };
}

/** Writes a whole generation (not yet current): the changed banks rendered, the others carried over. */
async function writeGeneration(
  store: Store,
  adapters: readonly BankEntry[],
  target: TreeTarget,
  generation: string,
  previous: CurrentGeneration | undefined,
  options: PublishOptions,
  timer: PhaseTimer,
) {
  const writer = new GenerationWriter(await target.begin(generation, previous, timer), timer, previous?.manifest.files);
  try {
    // First every bank's inputs (and which banks changed), then the list, whose siblings compress
    // while the changed banks are rendered and the others carried.
    const { plan, banks, list, result, renderedDocs } = await planBanks(
      store,
      adapters,
      generation,
      previous,
      options,
      timer,
    );

    const listModified = Object.values(banks).reduce(
      (max, b) => (b.lastModified > max ? b.lastModified : max),
      XSD_LAST_MODIFIED,
    );
    const common: RenderedFile[] = [
      {
        path: BANK_LIST_PATH,
        data: renderBankList(list),
        contentType: CONTENT_TYPES.json,
        lastModified: listModified,
        compress: true,
      },
      {
        path: XSD_PATH,
        data: Buffer.from(EXCHANGE_RATES_XSD, "utf8"),
        contentType: CONTENT_TYPES.xsd,
        lastModified: XSD_LAST_MODIFIED,
        compress: true,
      },
    ];
    for (const f of common) writer.compressEarly(f);
    // The changed banks first, their siblings compressing while the unchanged ones are carried.
    for (const { render } of plan) if (render) await writer.write(await timer.time("render", render));
    for (const { paths, render } of plan) if (!render) await writer.carryAll(paths);
    await writer.write(common);

    // Listed in the manifest as before: bank by bank, then the list and the schema.
    const files: Manifest["files"] = {};
    for (const path of [...plan.flatMap((p) => p.paths), ...common.map((f) => f.path)])
      files[path] = writer.files[path]!;
    const manifest: Manifest = {
      generation,
      publishedAt: (options.now ?? new Date()).toISOString(),
      files,
      banks,
    };
    const keys = options.signing;
    const signature =
      keys === UNSIGNED ? undefined : await timer.time("signature", () => signatureFiles(manifest, keys));
    // The last compressions and writes (the signature above was made while they ran).
    await timer.time("compress wait", () => writer.settled());
    await timer.time("finish", () => writer.finish(manifest, signature));
    return { manifest, renderedDocs, result };
  } catch (error) {
    // No write of it may still be under way when the caller removes what was written.
    await writer.settled().catch(() => undefined);
    throw error;
  }
}
