// From feed answers to stored rows: parse every answer with the bank's adapter, gate its records,
// and store them in one transaction. An answer the adapter refuses as a whole stores nothing; a bad
// row is held (left out, with its reason) and costs only itself.
import { readFile } from "node:fs/promises";

import { FeedError, UserError } from "../errors.js";
import { baseCurrencyOf } from "../feed/adapter.js";
import { redactUrl } from "../feed/redact.js";
import type { Store } from "../store/database.js";
import { ingestBatches, recordFailedFetch, type IngestBatch, type IngestResult } from "../store/rates.js";
import { asParsedAnswer } from "../feed/rows.js";
import type {
  BankAdapter,
  FeedDocument,
  FetchContext,
  FetchRange,
  HeldRow,
  ParseOutput,
  RateRecord,
} from "../types.js";
import { gateRecords, holdCrossAnswerConflicts } from "./validate.js";

/**
 * Parses and gates every document; throws before anything is stored if one is refused as a whole.
 * Rows the adapter or the gate held are returned beside the records, per document.
 */
export async function parseDocuments(adapter: BankAdapter, docs: FeedDocument[]): Promise<ParsedDocument[]> {
  const { id } = adapter.bank;
  const base = baseCurrencyOf(adapter.bank);
  const parsed: ParsedDocument[] = [];
  for (const doc of docs) {
    if (isNavigation(adapter, doc)) {
      parsed.push({ doc, records: [], held: [] }); // provenance only
      continue;
    }
    let output: ParseOutput;
    try {
      output = await adapter.parse(doc.body, { url: doc.url, contentType: doc.contentType });
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw new FeedError(id, `could not parse ${redactUrl(doc.url)}: ${(error as Error).message}`, { cause: error });
    }
    const answer = asParsedAnswer(output);
    parsed.push({ doc, ...gateRecords(base, answer.records, answer.held) });
  }
  // Across answers too: one key must not get two figures in one ingest.
  holdCrossAnswerConflicts(parsed);
  return parsed;
}

/** A page fetched only to find the data: recorded, never parsed. */
export function isNavigation(
  adapter: Pick<BankAdapter, "navigation">,
  doc: Pick<FeedDocument, "role" | "url">,
): boolean {
  return doc.role === "navigation" || (adapter.navigation?.test(doc.url) ?? false);
}

export interface ParsedDocument {
  doc: FeedDocument;
  records: RateRecord[];
  /** Rows left out of this answer, with their reasons. */
  held: HeldRow[];
}

/** Stores parsed documents of one bank as one transaction. */
export function storeParsed(
  store: Store,
  bankId: string,
  parsed: ParsedDocument[],
  kind: "fetch" | "import",
): IngestResult {
  const batches: IngestBatch[] = parsed.map(({ doc, records }) => ({
    provenance: {
      kind,
      method: doc.method,
      url: redactUrl(doc.url),
      startedAt: doc.startedAt,
      finishedAt: doc.finishedAt,
      httpStatus: doc.status,
      body: doc.body,
    },
    records,
  }));
  return ingestBatches(store, bankId, batches);
}

/** Parses, validates and stores one bank's documents; nothing is stored unless all of them parse. */
export async function storeDocuments(
  store: Store,
  adapter: BankAdapter,
  docs: FeedDocument[],
  kind: "fetch" | "import",
): Promise<IngestResult> {
  return storeParsed(store, adapter.bank.id, await parseDocuments(adapter, docs), kind);
}

/** Reads a saved feed answer from disk as a document of the given URL (default: the bank's source URL). */
export async function readSavedResponse(adapter: BankAdapter, file: string, url?: string): Promise<FeedDocument> {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message}`,
    );
  }
  if (url !== undefined) {
    try {
      new URL(url);
    } catch {
      throw new UserError(`--url "${url}" is not a URL`);
    }
  }
  const at = new Date();
  return {
    url: url ?? adapter.bank.sourceUrl,
    method: "GET",
    status: 200,
    contentType: "",
    body,
    startedAt: at,
    finishedAt: at,
  };
}

/**
 * `exrates import`: one saved answer, stored as one ingest. The file is parsed before the database
 * is even opened, so a bad file changes nothing (not even creating an empty database).
 */
export async function importFile(
  openStore: () => Promise<Store>,
  adapter: BankAdapter,
  file: string,
  url?: string,
): Promise<IngestResult> {
  const parsed = await parseDocuments(adapter, [await readSavedResponse(adapter, file, url)]);
  return storeParsed(await openStore(), adapter.bank.id, parsed, "import");
}

/** A fetch from the bank, stored; a failure is recorded as a failed fetch (provenance) and rethrown. */
export async function fetchAndStore(
  store: Store,
  adapter: BankAdapter,
  range: FetchRange,
  ctx: FetchContext,
): Promise<IngestResult> {
  const startedAt = new Date();
  let docs: FeedDocument[] = [];
  try {
    docs = await adapter.fetch(range, ctx);
    return await storeDocuments(store, adapter, docs, "fetch");
  } catch (error) {
    const last = docs.at(-1);
    recordFailedFetch(
      store,
      adapter.bank.id,
      {
        kind: "fetch",
        method: last?.method ?? "GET",
        url: redactUrl(last?.url ?? adapter.bank.sourceUrl),
        startedAt,
        finishedAt: new Date(),
        httpStatus: last?.status,
        body: last?.body,
      },
      (error as Error).message,
    );
    throw error;
  }
}
