// From feed answers to stored rows: parse every answer with the bank's adapter, gate its records,
// and store them in one transaction. An answer the adapter refuses as a whole stores nothing; a bad
// row is held (left out, with its reason) and costs only itself.
import { readFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { basename } from "node:path";

import { recordCorrections } from "../events/corrections.js";
import { FeedError, UserError } from "../errors.js";
import { baseCurrencyOf } from "../feed/adapter.js";
import { fetchDeadlineOf, withDeadline } from "../feed/http.js";
import { redactUrl } from "../feed/redact.js";
import { redactSecrets } from "../secrets.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import type { IngestBatch, IngestResult, Provenance } from "../store/ingest-data.js";
import { ingestTransaction, recordFailedFetch } from "../store/rates.js";
import { asParsedAnswer } from "../feed/rows.js";
import type {
  BankAdapter,
  BankDescriptor,
  FeedDocument,
  FetchContext,
  FetchRange,
  HeldRow,
  ParseOutput,
  RateRecord,
} from "../types.js";
import { crossCheckConfig, type CrossCheckConfig } from "./sanity.js";
import { screenAnswers, screeningQuery, type ScreenedAnswer } from "./screen.js";
import { parseBudget, tooLargeToParse } from "./parse-budget.js";
import { dateLimit, gateRecords, holdCrossAnswerConflicts } from "./validate.js";

/**
 * Parses and gates every document; throws before anything is stored if one is refused as a whole.
 * Rows the adapter or the gate held are returned beside the records, per document. `now` is the
 * ingest's clock: a date beyond what the bank can have published by then is held.
 */
export async function parseDocuments(
  adapter: BankAdapter,
  docs: FeedDocument[],
  now: Date = new Date(),
): Promise<ParsedDocument[]> {
  const { id } = adapter.bank;
  const base = baseCurrencyOf(adapter.bank);
  const limit = dateLimit(adapter.bank, now);
  const parsed: ParsedDocument[] = [];
  for (const doc of docs) {
    if (isNavigation(adapter, doc)) {
      parsed.push({ doc, records: [], held: [], navigation: true }); // provenance only
      continue;
    }
    const tooLarge = tooLargeToParse(doc.body, doc.contentType);
    if (tooLarge) throw new FeedError(id, `refused ${redactUrl(doc.url)}: ${tooLarge}`);
    let output: ParseOutput;
    try {
      const { url, contentType, method, requestBody } = doc;
      // Within the process's parse budget: concurrent catch-up tries do not parse large answers all at once.
      output = await parseBudget.run(doc.body.length, () =>
        adapter.parse(doc.body, { url, contentType, method, requestBody }),
      );
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw new FeedError(id, `could not parse ${redactUrl(doc.url)}: ${(error as Error).message}`, { cause: error });
    }
    const answer = asParsedAnswer(output);
    parsed.push({ doc, ...gateRecords(base, answer.records, answer.held, limit), noPublication: answer.noPublication });
  }
  requireSomething(id, parsed);
  // Across answers too: one key must not get two figures in one ingest.
  holdCrossAnswerConflicts(parsed);
  return parsed;
}

/**
 * A page fetched only to find the data: recorded, never parsed. Marked so by `fetch`, or told by its
 * URL (`navigation`) or by what it holds (`navigationAnswer`), never by the request method alone.
 */
export function isNavigation(
  adapter: Pick<BankAdapter, "navigation" | "navigationAnswer">,
  doc: Pick<FeedDocument, "role" | "url" | "method" | "contentType" | "body">,
): boolean {
  return (
    doc.role === "navigation" ||
    (adapter.navigation?.test(doc.url) ?? false) ||
    (adapter.navigationAnswer?.(doc) ?? false)
  );
}

/**
 * Nothing is silently empty: answers that are not navigation and together yield no record and no held
 * row are refused, unless one of them says positively that the bank published nothing (`noPublication`).
 * Judged over the fetch as a whole, so that a page past the last one of a paged list costs nothing.
 */
function requireSomething(bankId: string, parsed: ParsedDocument[]): void {
  const read = parsed.filter((p) => !p.navigation);
  if (read.length === 0 || read.some((p) => p.records.length > 0 || p.held.length > 0 || p.noPublication)) return;
  const { method, url } = read[0]!.doc;
  const more = read.length > 1 ? ` and ${read.length - 1} more` : "";
  throw new FeedError(
    bankId,
    `no rates found in this answer (${method} ${redactUrl(url)}${more}): not a page that only leads to the data, and it does not say that nothing was published`,
  );
}

export interface ParsedDocument {
  doc: FeedDocument;
  records: RateRecord[];
  /** Rows left out of this answer, with their reasons. */
  held: HeldRow[];
  /** Why the answer holds no publication, when it says so (ParsedAnswer.noPublication). */
  noPublication?: string;
  /** A page that only leads to the data (recorded, never parsed). */
  navigation?: true;
}

/**
 * Logs the anomalies an ingest met for the first time, one line each (a row held again at the next poll
 * is not logged again: it is counted in `exrates anomalies`).
 */
export function logNewAnomalies(log: Logger, bankId: string, outcome: Pick<IngestOutcome, "newAnomalies">): void {
  const { newAnomalies } = outcome;
  // A first import of a long history can meet thousands (a currency held on every day): a few lines,
  // then one line counting the rest by kind.
  for (const a of newAnomalies.slice(0, LOGGED_ANOMALIES)) {
    const figure = { date: a.effectiveDate, currency: a.currency, rate: a.rate, source: a.source };
    if (a.status === "held") log.warn({ bank: bankId, kind: a.kind, ...figure, reason: a.reason }, "held");
    else log.warn({ bank: bankId, kind: a.kind, ...figure, reason: a.reason }, "published with a warning");
  }
  const rest = newAnomalies.slice(LOGGED_ANOMALIES);
  if (rest.length === 0) return;
  const kinds: Record<string, number> = {};
  for (const a of rest) kinds[`${a.kind} ${a.status}`] = (kinds[`${a.kind} ${a.status}`] ?? 0) + 1;
  log.warn({ bank: bankId, more: rest.length, kinds }, "more anomalies (exrates anomalies lists them)");
}

/** How many new anomalies of one ingest are logged one by one. */
const LOGGED_ANOMALIES = 5;

/** What one ingest did: rows stored, revised and left alone, and what it held or warned about. */
export interface IngestOutcome extends IngestResult {
  /** Rows and figures left out (held now, or held before and sent again). */
  held: number;
  /** Figures stored with a warning. */
  warned: number;
}

/**
 * Stores parsed documents of one bank as one transaction: load, decide, write. The store reads what
 * screening needs (src/ingest/screen.ts), screening decides over it, and the rows, the anomalies and
 * the fetch provenance land together or not at all (the engine's transaction is the store's business:
 * src/store/rates.ts).
 */
export async function storeParsed(
  store: Store,
  bank: BankDescriptor,
  parsed: ParsedDocument[],
  origin: Origin,
  check: CrossCheckConfig | false = crossCheckConfig(),
): Promise<IngestOutcome> {
  const now = new Date();
  const quoting = { baseCurrency: baseCurrencyOf(bank), quoteType: bank.quoteType };
  const { result, decision } = await ingestTransaction(store, screeningQuery(bank, parsed, check), (snapshot) => {
    const screened = screenAnswers(bank, parsed, snapshot, check);
    return { write: { batches: toBatches(parsed, screened, origin), now, quoting }, decision: screened };
  });
  if (result.revised > 0) await recordCorrections(store, bank.id, result.fetchIds, { now });
  return outcome(result, decision);
}

/**
 * Where stored answers came from: fetched from the bank (each answer's URL is the one asked), or a file
 * given to `exrates import`, recorded as such: its base name, who imported it, and the URL the importer
 * declared, if any (never the URL the adapter parsed it as if from: nothing was fetched).
 */
export type Origin = "fetch" | ImportedFile;

/** A saved answer given to `exrates import`. */
export interface ImportedFile {
  /** The file's base name (a full path could name a home directory). */
  file: string;
  /** Who imported it: `--by`, default the OS user. */
  by: string;
  /** `--url`: where the importer says the file came from (unverified). */
  declaredUrl?: string;
}

function provenanceOf(doc: FeedDocument, origin: Origin): Provenance {
  const { method, startedAt, finishedAt, body } = doc;
  if (origin === "fetch")
    return { kind: "fetch", method, url: redactUrl(doc.url), startedAt, finishedAt, httpStatus: doc.status, body };
  const url = origin.declaredUrl === undefined ? "" : redactUrl(origin.declaredUrl);
  // A configured secret typed into a file name or --by is masked as in a URL.
  const [file, importedBy] = [redactSecrets(origin.file), redactSecrets(origin.by)];
  return { kind: "import", method, url, file, importedBy, startedAt, finishedAt, body };
}

/** One batch per answer: its provenance, the records screening let through, its anomalies. */
function toBatches(parsed: ParsedDocument[], screened: ScreenedAnswer[], origin: Origin): IngestBatch[] {
  return parsed.map(({ doc }, i) => ({
    provenance: provenanceOf(doc, origin),
    records: screened[i]!.records,
    anomalies: screened[i]!.anomalies,
  }));
}

function outcome(result: IngestResult, screened: ScreenedAnswer[]): IngestOutcome {
  return {
    ...result,
    held: screened.reduce((n, s) => n + s.heldCount, 0),
    warned: screened.reduce((n, s) => n + s.warnedCount, 0),
  };
}

/**
 * Parses, validates and stores one bank's documents; nothing is stored unless all of them parse. `now`:
 * the ingest's clock (dates beyond what the bank can have published by then are held).
 */
export async function storeDocuments(
  store: Store,
  adapter: BankAdapter,
  docs: FeedDocument[],
  origin: Origin,
  now: Date = new Date(),
): Promise<IngestOutcome> {
  return storeParsed(store, adapter.bank, await parseDocuments(adapter, docs, now), origin);
}

/** How a saved answer was asked for, as the daemon asked (the CLI's --url, --method and --form). */
export interface SavedRequest {
  /** Default: the bank's source URL. */
  url?: string;
  method?: "GET" | "POST";
  /** What the POST sent (urlencoded). */
  requestBody?: string;
}

/** Reads a saved feed answer from disk as the document the daemon would have had. */
export async function readSavedResponse(
  adapter: BankAdapter,
  file: string,
  request: SavedRequest = {},
): Promise<FeedDocument> {
  const { url, method = "GET", requestBody } = request;
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
    method,
    ...(requestBody !== undefined && { requestBody }),
    status: 200,
    contentType: "",
    body,
    startedAt: at,
    finishedAt: at,
  };
}

/**
 * `exrates import`: one saved answer, stored as one ingest and recorded as an import (the file's base
 * name, its sha256, who imported it (`by`), when, and the URL declared with --url if any). The file is
 * parsed before the database is even opened, so a bad file changes nothing (not even creating an empty
 * database).
 */
export async function importFile(
  openStore: () => Promise<Store>,
  adapter: BankAdapter,
  file: string,
  request: SavedRequest = {},
  by: string = importer(),
): Promise<IngestOutcome & Pick<ParsedDocument, "noPublication" | "navigation">> {
  const parsed = await parseDocuments(adapter, [await readSavedResponse(adapter, file, request)]);
  const { noPublication, navigation } = parsed[0]!;
  const origin: ImportedFile = {
    file: basename(file),
    by,
    ...(request.url !== undefined && { declaredUrl: request.url }),
  };
  return { ...(await storeParsed(await openStore(), adapter.bank, parsed, origin)), noPublication, navigation };
}

/** Who runs this process, as the OS names them ("unknown" when it cannot say). */
export function importer(): string {
  try {
    return userInfo().username || "unknown";
  } catch {
    return "unknown";
  }
}

/** A fetch from the bank, stored; a failure is recorded as a failed fetch (provenance) and rethrown. */
export async function fetchAndStore(
  store: Store,
  adapter: BankAdapter,
  range: FetchRange,
  ctx: FetchContext,
  now: Date = new Date(),
): Promise<IngestOutcome> {
  const startedAt = new Date();
  let docs: FeedDocument[] = [];
  // Every fetch has a total deadline (the adapter's, default 120 s): a bank dripping its answer a byte
  // at a time never trips the timeout between chunks, and would hold its fetch slot for ever. A shutdown
  // does not cut the fetch short: the daemon and a backfill wait for the run in flight (bounded by this
  // deadline), so that what it fetched is stored; a second Ctrl-C quits at once.
  const http = withDeadline(ctx.http, fetchDeadlineOf(adapter.bank));
  try {
    docs = await adapter.fetch(range, { ...ctx, http });
    return await storeDocuments(store, adapter, docs, "fetch", now);
  } catch (error) {
    const last = docs.at(-1);
    await recordFailedFetch(
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
  } finally {
    http.clear();
  }
}
