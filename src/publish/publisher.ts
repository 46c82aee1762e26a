// Renders every bank's Bank document and latest rates in four formats into a new generation of the
// tree, re-rendering only banks whose data changed (the others are hard-linked from the previous
// generation), then switches to it atomically.
import { copyFile, link, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

import { recordPublications } from "../events/publication.js";
import { toBankResource } from "../feed/adapter.js";
import { timedPublish } from "../metrics.js";
import type { Store } from "../store/database.js";
import type { BankAdapter, LatestRatesDocument } from "../types.js";
import { latestDocument } from "./document.js";
import { renderCsv } from "./render-csv.js";
import { renderBank, renderBankList, renderJson, type BankListEntry } from "./render-json.js";
import { renderXlsx } from "./render-xlsx.js";
import { renderXml } from "./render-xml.js";
import { withPublishLock } from "./lock.js";
import {
  GENERATIONS_DIR,
  MANIFEST,
  etagOf,
  newGenerationName,
  pruneGenerations,
  readCurrentGeneration,
  sha256Hex,
  switchTo,
  writeDurable,
  type Manifest,
} from "./tree.js";
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

export const latestPath = (bankId: string, ext: "json" | "xml" | "csv" | "xlsx") =>
  `v1/Banks/${bankId}/DailyRates/Latest.${ext}`;
export const bankPath = (bankId: string) => `v1/banks/${bankId}.json`;
export const BANK_LIST_PATH = "v1/banks.json";

export interface PublishOptions {
  /** Re-render only these banks (others carried over); default: every bank whose data changed. */
  only?: string[];
  now?: Date;
  /** How many older generations to keep for readers mid-way. */
  keep?: number;
}

export interface PublishResult {
  generation: string;
  rendered: string[];
  carried: string[];
  /** Banks without any stored rate (nothing to publish). */
  empty: string[];
  files: number;
}

class GenerationWriter {
  readonly files: Manifest["files"] = {};
  constructor(readonly dir: string) {}

  async write(path: string, data: Buffer, contentType: string, lastModified: string, compress: boolean): Promise<void> {
    const full = join(this.dir, path);
    await mkdir(dirname(full), { recursive: true });
    writeDurable(full, data);
    const encodings: Array<"br" | "gzip"> = [];
    if (compress) {
      writeDurable(
        `${full}.br`,
        brotliCompressSync(data, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
        }),
      );
      writeDurable(`${full}.gz`, gzipSync(data, { level: 9 }));
      encodings.push("br", "gzip");
    }
    const sha256 = sha256Hex(data);
    this.files[path] = { bytes: data.length, sha256, etag: etagOf(sha256), lastModified, contentType, encodings };
  }

  /** Hard-links a file (and its siblings) from the previous generation; copies across devices. */
  async carry(fromDir: string, path: string, entry: Manifest["files"][string]): Promise<void> {
    const target = join(this.dir, path);
    await mkdir(dirname(target), { recursive: true });
    const suffixes = ["", ...entry.encodings.map((e) => (e === "br" ? ".br" : ".gz"))];
    for (const s of suffixes) {
      await link(join(fromDir, path + s), target + s).catch(() => copyFile(join(fromDir, path + s), target + s));
    }
    this.files[path] = entry;
  }
}

/** What a bank's files are rendered from, and its hash; undefined for a bank without rates. */
async function bankInput(store: Store, adapter: BankAdapter) {
  const doc = await latestDocument(store, adapter.bank);
  if (!doc) return undefined;
  const resource = toBankResource(adapter.bank);
  const inputHash = sha256Hex(JSON.stringify({ RENDER_VERSION, doc, resource }));
  return { doc, resource, inputHash };
}

export async function publish(
  store: Store,
  adapters: BankAdapter[],
  outDir: string,
  options: PublishOptions = {},
): Promise<PublishResult> {
  await mkdir(join(outDir, GENERATIONS_DIR), { recursive: true });
  return timedPublish(() => publishLocked(store, adapters, outDir, options));
}

async function publishLocked(
  store: Store,
  adapters: BankAdapter[],
  outDir: string,
  options: PublishOptions,
): Promise<PublishResult> {
  return withPublishLock({ outDir, store }, async () => {
    const previous = await readCurrentGeneration(outDir);
    const generation = newGenerationName(options.now);
    const writer = new GenerationWriter(join(outDir, GENERATIONS_DIR, generation));
    await mkdir(writer.dir, { recursive: true });
    const only = options.only ? new Set(options.only.map((id) => id.toUpperCase())) : undefined;

    const banks: Manifest["banks"] = {};
    const list: BankListEntry[] = [];
    const result: PublishResult = { generation, rendered: [], carried: [], empty: [], files: 0 };
    /** The re-rendered banks' documents, for the events once the switch is done. */
    const renderedDocs: LatestRatesDocument[] = [];

    for (const adapter of [...adapters].sort((a, b) => a.bank.id.localeCompare(b.bank.id))) {
      const id = adapter.bank.id;
      const before = previous?.manifest.banks[id];
      const paths = [bankPath(id), ...(["json", "xml", "csv", "xlsx"] as const).map((e) => latestPath(id, e))];
      const carriable = before && previous && paths.every((p) => previous.manifest.files[p]);
      if (only && !only.has(id)) {
        if (carriable) {
          for (const p of paths) await writer.carry(previous.dir, p, previous.manifest.files[p]!);
          banks[id] = before;
          list.push({ id, name: toBankResource(adapter.bank).name, latestEffectiveDate: before.effectiveDate });
          result.carried.push(id);
        }
        continue;
      }
      const input = await bankInput(store, adapter);
      if (!input) {
        result.empty.push(id);
        continue;
      }
      const { doc, resource, inputHash } = input;
      const lastModified = doc.publishedAt;
      if (carriable && before.inputHash === inputHash) {
        for (const p of paths) await writer.carry(previous.dir, p, previous.manifest.files[p]!);
        banks[id] = before;
        result.carried.push(id);
      } else {
        await writer.write(bankPath(id), renderBank(resource), CONTENT_TYPES.json, lastModified, true);
        await writer.write(latestPath(id, "json"), renderJson(doc), CONTENT_TYPES.json, lastModified, true);
        await writer.write(latestPath(id, "xml"), renderXml(doc), CONTENT_TYPES.xml, lastModified, true);
        await writer.write(latestPath(id, "csv"), renderCsv(doc), CONTENT_TYPES.csv, lastModified, true);
        await writer.write(
          latestPath(id, "xlsx"),
          await renderXlsx(doc, resource.name[0]?.name ?? id),
          CONTENT_TYPES.xlsx,
          lastModified,
          false,
        );
        banks[id] = { effectiveDate: doc.effectiveDate, inputHash, lastModified };
        result.rendered.push(id);
        renderedDocs.push(doc);
      }
      list.push({ id, name: resource.name, latestEffectiveDate: doc.effectiveDate });
    }

    const listModified = Object.values(banks).reduce(
      (max, b) => (b.lastModified > max ? b.lastModified : max),
      XSD_LAST_MODIFIED,
    );
    await writer.write(BANK_LIST_PATH, renderBankList(list), CONTENT_TYPES.json, listModified, true);
    await writer.write(XSD_PATH, Buffer.from(EXCHANGE_RATES_XSD, "utf8"), CONTENT_TYPES.xsd, XSD_LAST_MODIFIED, true);

    const manifest: Manifest = {
      generation,
      publishedAt: (options.now ?? new Date()).toISOString(),
      files: writer.files,
      banks,
    };
    writeDurable(join(writer.dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await switchTo(outDir, generation);
    // Only now can a subscriber told of new rates read them (src/events/publication.ts).
    await recordPublications(store, { previousDir: previous?.dir, generation, docs: renderedDocs, latestPath });
    await pruneGenerations(outDir, options.keep ?? 2);
    result.files = Object.keys(writer.files).length;
    return result;
  });
}
