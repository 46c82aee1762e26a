// What was known at an instant, and every correction: reads over `rates` and `rate_revisions` on
// either engine (the same SQL text; `?` placeholders, numbered for PostgreSQL). A figure of `rates`
// is in force from its stored_at; a revision's old figure from its old_stored_at until its
// revised_at (migration 007), so the figures known at an instant T are the rows stored by T and the
// revisions' old figures whose interval holds T. Nothing here writes.
import type BetterSqlite3 from "better-sqlite3";

import type pg from "pg";

import type { IsoDate } from "../types.js";
import type { WarnedFigure } from "./anomalies.js";
import { isPostgres, type Store } from "./database.js";
import { PostgresHistoryReader } from "./history-postgres.js";
import { HistoryReader, periodParameters, type HistoryRow, type HistoryStore, type PeriodFigure } from "./history.js";

/** A figure known at an instant, with when it was stored and the fetch that brought it. */
export interface KnownRow extends HistoryRow {
  storedAt: string;
  fetchId: number;
}

/**
 * Where a figure came from: the bank's answer (`fetch`: the URL asked, secrets masked) or a file given to
 * `exrates import` (`import`: its base name, who imported it, and the URL the importer declared, "" when
 * none); when it was fetched or imported (`at`), and the sha256 of its bytes.
 */
export interface Provenance {
  fetchId: number;
  kind: "fetch" | "import";
  url: string;
  /** When the answer was fetched, or the file imported. */
  at: string;
  sha256: string | null;
  /** An import's file name (null: imported before file names were kept, migration 009). */
  file?: string | null;
  /** Who imported the file (null: imported before migration 009). */
  importedBy?: string | null;
}

/** One revision of a stored figure, with the provenance of both figures. */
export interface Correction {
  effectiveDate: IsoDate;
  currency: string;
  previous: { rate: string; unitMultiplier: number; storedAt: string; source: Provenance };
  current: { rate: string; unitMultiplier: number; storedAt: string; source: Provenance };
}

type Row = Record<string, unknown>;
type Runner = (text: string, params: unknown[]) => Promise<Row[]>;

/** Rows read per statement while a range is streamed. */
const CHUNK_ROWS = 2048;

function sqliteRunner(sqlite: BetterSqlite3.Database): Runner {
  const statements = new Map<string, BetterSqlite3.Statement<unknown[]>>();
  return (text, params) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = sqlite.prepare(text)));
    return Promise.resolve(statement.all(...params) as Row[]);
  };
}

function postgresRunner(pool: Pick<pg.Pool, "query">): Runner {
  return async (text, params) => {
    let n = 0;
    const numbered = text.replace(/\?/g, () => `$${++n}`);
    return (await pool.query(numbered, params)).rows as Row[];
  };
}

/** Warned figures first seen by an instant (src/store/anomalies.ts keeps them). */
const WARNED = `select effective_date as "effectiveDate", currency, rate, coalesce(unit_multiplier, 0) as "unitMultiplier", reason
  from anomalies where bank_id = ? and status = 'warned' and effective_date between ? and ? and first_seen_at <= ?
     and currency is not null and rate is not null
 order by effective_date, currency, id`;

const KNOWN_COLUMNS = `effective_date as "effectiveDate", currency, rate, unit_multiplier as "unitMultiplier",
  stored_at as "storedAt", fetch_id as "fetchId"`;
const OLD_COLUMNS = `effective_date, currency, old_rate, old_unit_multiplier, old_stored_at, old_fetch_id`;

/** The figures of a bank known at `?` (the instant, given twice then thrice) over a date condition. */
const known = (dates: string) => `
  select ${KNOWN_COLUMNS} from rates where bank_id = ? and ${dates} and stored_at <= ?
  union all
  select ${OLD_COLUMNS} from rate_revisions
   where bank_id = ? and ${dates} and old_stored_at <= ? and revised_at > ?`;

const DAY = `${known("effective_date = ?")} order by 2`;
const CHUNK = `${known("(effective_date > ? or (effective_date = ? and currency > ?)) and effective_date <= ?")}
  order by 1, 2 limit ${CHUNK_ROWS}`;
const FIRST_STORED = `
  select d as "date", min(t) as "at" from (
    select effective_date as d, min(stored_at) as t from rates where bank_id = ? group by effective_date
    union all
    select effective_date, min(old_stored_at) from rate_revisions where bank_id = ? group by effective_date) k
  group by d order by d`;
const CORRECTIONS = `
  select r.effective_date as "effectiveDate", r.currency, r.old_rate as "oldRate",
         r.old_unit_multiplier as "oldUnit", r.old_stored_at as "oldStoredAt", r.new_rate as "newRate",
         r.new_unit_multiplier as "newUnit", r.revised_at as "revisedAt",
         o.id as "oldFetchId", o.kind as "oldKind", o.url as "oldUrl",
         coalesce(o.finished_at, o.started_at) as "oldAt", o.sha256 as "oldSha256",
         o.file_name as "oldFile", o.imported_by as "oldImportedBy",
         n.id as "newFetchId", n.kind as "newKind", n.url as "newUrl",
         coalesce(n.finished_at, n.started_at) as "newAt", n.sha256 as "newSha256",
         n.file_name as "newFile", n.imported_by as "newImportedBy"
    from rate_revisions r join fetches o on o.id = r.old_fetch_id join fetches n on n.id = r.new_fetch_id
   where r.bank_id = ? and r.revised_at >= ? and r.revised_at < ?
   order by r.revised_at, r.effective_date, r.currency, r.id`;

/**
 * A period source's figures known at an instant that may be in force within a range (as
 * PERIOD_FIGURES_SQL in history.ts): a revision's old figure keeps its row's validity end (a revision
 * changes a figure's value, not its period). Parameters: bank, from, to (+ the longest period), the
 * instant, then bank, from, to, the instant twice.
 */
const PERIOD_KNOWN = `
  select ${KNOWN_COLUMNS}, valid_to as "validTo" from rates
   where bank_id = ? and valid_to >= ? and effective_date <= ? and stored_at <= ?
  union all
  select v.effective_date, v.currency, v.old_rate, v.old_unit_multiplier, v.old_stored_at, v.old_fetch_id, r.valid_to
    from rate_revisions v join rates r
      on r.bank_id = v.bank_id and r.effective_date = v.effective_date and r.currency = v.currency
   where v.bank_id = ? and r.valid_to >= ? and v.effective_date <= ? and v.old_stored_at <= ? and v.revised_at > ?
  order by 1, 2`;

const toKnown = (r: Row): KnownRow => ({
  effectiveDate: r.effectiveDate as IsoDate,
  currency: r.currency as string,
  rate: r.rate as string,
  unitMultiplier: Number(r.unitMultiplier),
  storedAt: r.storedAt as string,
  fetchId: Number(r.fetchId),
});

/** The reads of what was known, over one store (SQLite's read-only connection or PostgreSQL's pool). */
export class AsOfReader {
  /** Per bank: each stored date and when a figure of it was first stored; kept for one generation. */
  private readonly firstStored = new Map<string, { generation: number; dates: Array<{ date: IsoDate; at: string }> }>();

  private constructor(
    private readonly run: Runner,
    /** A number that moves whenever the store's data may have (the history reader's generation). */
    private readonly generation: () => number,
  ) {}

  /** The reader over the server's store (one per store). */
  static of(store: HistoryStore): AsOfReader {
    let reader = readers.get(store);
    if (!reader) {
      const run =
        store instanceof HistoryReader
          ? sqliteRunner(store.sqlite)
          : store instanceof PostgresHistoryReader
            ? postgresRunner(store.pool)
            : undefined;
      if (!run) throw new Error("Unknown kind of store");
      readers.set(store, (reader = new AsOfReader(run, () => store.generation())));
    }
    return reader;
  }

  /** A reader over an opened store (the CLI's), without caching. */
  static ofStore(store: Store): AsOfReader {
    let n = 0;
    return new AsOfReader(isPostgres(store) ? postgresRunner(store.pool) : sqliteRunner(store.sqlite), () => n++);
  }

  /** Each stored date of a bank with when it was first stored, oldest date first. */
  async datesFirstStored(bankId: string): Promise<Array<{ date: IsoDate; at: string }>> {
    const generation = this.generation();
    const cached = this.firstStored.get(bankId);
    if (cached?.generation === generation) return cached.dates;
    const rows = await this.run(FIRST_STORED, [bankId, bankId]);
    const dates = rows.map((r) => ({ date: r.date as IsoDate, at: r.at as string }));
    this.firstStored.set(bankId, { generation, dates });
    return dates;
  }

  /** The dates known at `asOf`, oldest first, and when the bank's first figure was stored (undefined: none). */
  async datesKnown(bankId: string, asOf: string): Promise<{ dates: IsoDate[]; since: string | undefined }> {
    const all = await this.datesFirstStored(bankId);
    let since: string | undefined;
    const dates: IsoDate[] = [];
    for (const d of all) {
      if (since === undefined || d.at < since) since = d.at;
      if (d.at <= asOf) dates.push(d.date);
    }
    return { dates, since };
  }

  /**
   * The figures of a bank from one date to another that had been published with a warning by `asOf`,
   * as they were warned about (a caller keeps those whose figure is the one known then).
   */
  async warnedKnown(bankId: string, from: IsoDate, to: IsoDate, asOf: string): Promise<WarnedFigure[]> {
    return (await this.run(WARNED, [bankId, from, to, asOf])).map((r) => ({
      effectiveDate: r.effectiveDate as string,
      currency: r.currency as string,
      rate: r.rate as string,
      unitMultiplier: Number(r.unitMultiplier),
      reason: r.reason as string,
    }));
  }

  /** The figures of one date known at `asOf`, by currency. */
  async day(bankId: string, date: IsoDate, asOf: string): Promise<KnownRow[]> {
    return (await this.run(DAY, [bankId, date, asOf, bankId, date, asOf, asOf])).map(toKnown);
  }

  /** A period source's figures known at `asOf` that may be in force within [from, to], oldest first. */
  async periodFigures(bankId: string, from: IsoDate, to: IsoDate, asOf: string): Promise<PeriodFigure[]> {
    const [, start, end] = periodParameters(bankId, from, to);
    const rows = await this.run(PERIOD_KNOWN, [bankId, start, end, asOf, bankId, start, end, asOf, asOf]);
    return rows.map((r) => ({ ...toKnown(r), validTo: r.validTo as IsoDate }));
  }

  /** The figures from `from` to `to` known at `asOf`, by date then currency, in chunks. */
  async *range(bankId: string, from: IsoDate, to: IsoDate, asOf: string): AsyncGenerator<KnownRow[]> {
    // Keyset start just before `from`: any currency code sorts after "".
    let afterDate = from;
    let afterCurrency = "";
    for (;;) {
      const keyset = [afterDate, afterDate, afterCurrency, to];
      const rows = (await this.run(CHUNK, [bankId, ...keyset, asOf, bankId, ...keyset, asOf, asOf])).map(toKnown);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < CHUNK_ROWS) return;
      const last = rows[rows.length - 1]!;
      afterDate = last.effectiveDate;
      afterCurrency = last.currency;
    }
  }

  /** Where the figures of these fetches came from, by fetch id. */
  async provenance(fetchIds: Iterable<number>): Promise<Map<number, Provenance>> {
    const ids = [...new Set(fetchIds)];
    const out = new Map<number, Provenance>();
    if (ids.length === 0) return out;
    const rows = await this.run(
      `select id as "Id", kind as "Kind", url as "Url", coalesce(finished_at, started_at) as "At", sha256 as "Sha256",
              file_name as "File", imported_by as "ImportedBy"
         from fetches where id in (${ids.map(() => "?").join(", ")})`,
      ids,
    );
    for (const r of rows) out.set(Number(r.Id), source(r, ""));
    return out;
  }

  /** Every bank with a corrected figure, by id. */
  async correctedBanks(): Promise<string[]> {
    return (await this.run("select distinct bank_id as id from rate_revisions order by 1", [])).map(
      (r) => r.id as string,
    );
  }

  /** Every revision of the bank's figures stored from `from` to `to` (UTC dates, inclusive), oldest first. */
  async corrections(bankId: string, from: IsoDate, to: IsoDate): Promise<Correction[]> {
    const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString();
    const rows = await this.run(CORRECTIONS, [bankId, `${from}T00:00:00.000Z`, end]);
    return rows.map((r) => ({
      effectiveDate: r.effectiveDate as IsoDate,
      currency: r.currency as string,
      previous: {
        rate: r.oldRate as string,
        unitMultiplier: Number(r.oldUnit),
        storedAt: r.oldStoredAt as string,
        source: source(r, "old"),
      },
      current: {
        rate: r.newRate as string,
        unitMultiplier: Number(r.newUnit),
        storedAt: r.revisedAt as string,
        source: source(r, "new"),
      },
    }));
  }
}

/** A provenance from its columns, named `${prefix}Url` and so on ("old", "new", or "" with `Id`). */
function source(r: Row, prefix: "old" | "new" | ""): Provenance {
  const kind = r[`${prefix}Kind`] === "import" ? "import" : "fetch";
  return {
    fetchId: Number(r[prefix ? `${prefix}FetchId` : "Id"]),
    kind,
    url: r[`${prefix}Url`] as string,
    at: r[`${prefix}At`] as string,
    sha256: (r[`${prefix}Sha256`] as string | null) ?? null,
    ...(kind === "import"
      ? {
          file: (r[`${prefix}File`] as string | null) ?? null,
          importedBy: (r[`${prefix}ImportedBy`] as string | null) ?? null,
        }
      : {}),
  };
}

const readers = new WeakMap<HistoryStore, AsOfReader>();
