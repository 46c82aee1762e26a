// Read-only queries over the stored rates for the history endpoints: the set in force on a date, every
// date of a range (read in keyset chunks, in one read transaction of a connection of its own: a WAL
// snapshot, so the body is one state of the store while the daemon writes), the first and latest stored
// dates of each bank, and every quoted currency with its banks. The server opens its own read-only
// connection (a WAL reader beside the daemon's writer).
// The per-bank date lists and the currency list are cached until another connection commits
// (`PRAGMA data_version`).
import { hash } from "node:crypto";

import BetterSqlite3 from "better-sqlite3";

import { addDays } from "../feed/dates.js";
import type { IsoDate, QuoteType } from "../types.js";
import { FIGURE_BOUNDS } from "../feed/figure-bounds.js";
import { figureUsable } from "./figure-guard.js";

/** One stored figure as the history documents need it. */
export interface HistoryRow {
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  /** 0 for one unit. */
  unitMultiplier: number;
  /** A period source's figure: the first and last day it is in force (src/store/periods.ts). */
  validFrom?: IsoDate;
  validTo?: IsoDate;
  /** Why the figure was published with a warning (see RateWarning); absent for nearly every figure. */
  warning?: string;
}

/**
 * One stored figure as an index of a bank's days is fed (src/store/day-index.ts): date, currency, rate,
 * unit multiplier, stored_at, fetch id.
 */
export type IndexRow = readonly [IsoDate, string, string, number, string, number];

/** One stored figure of a period source, as read for src/store/periods.ts. */
export interface PeriodFigure {
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  unitMultiplier: number;
  validTo: IsoDate;
  storedAt: string;
  fetchId: number;
}

/**
 * A stored figure published with a warning: the cross-bank check doubted it without holding it
 * (docs/ANOMALIES.md), recorded as a `warned` anomaly of that very figure (date, currency, rate, unit).
 * A figure corrected since is no longer the one warned about, and carries no warning.
 */
export interface RateWarning {
  effectiveDate: IsoDate;
  currency: string;
  reason: string;
}

/** The key of a figure in warningsByFigure's map. */
export const warningKey = (date: IsoDate, currency: string) => `${date} ${currency}`;

/** Warnings by figure (warningKey): two reasons for one figure are joined by "; ", in the order given. */
export function warningsByFigure(warnings: Iterable<RateWarning>): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of warnings) {
    const key = warningKey(w.effectiveDate, w.currency);
    const before = out.get(key);
    if (before !== w.reason && !before?.split("; ").includes(w.reason))
      out.set(key, before ? `${before}; ${w.reason}` : w.reason);
  }
  return out;
}

/**
 * The warned anomalies of a bank from one date to another whose figure is the one stored: the same
 * statement on both engines (`?` placeholders here; PostgreSQL's are numbered by the caller).
 */
export const WARNINGS_SQL = `select a.effective_date as "effectiveDate", a.currency as "currency", a.reason as "reason"
  from anomalies a join rates r on r.bank_id = a.bank_id and r.effective_date = a.effective_date
   and r.currency = a.currency and r.rate = a.rate and r.unit_multiplier = coalesce(a.unit_multiplier, 0)
 where a.bank_id = ? and a.status = 'warned' and a.effective_date between ? and ?
 order by a.effective_date, a.currency, a.id`;

/** What a dated request resolves to. */
export type InForce =
  | { kind: "found"; effectiveDate: IsoDate }
  | {
      kind: "none";
      reason: "no-data" | "before-first" | "future" | "gap";
      /** The bank's first and latest stored dates (absent when it has none). */
      first?: IsoDate;
      latest?: IsoDate;
      /** The stored dates nearest the asked date, on either side. */
      before?: IsoDate;
      after?: IsoDate;
    };

/** What the rows behind a response are, for its ETag and Last-Modified. */
export interface RowsVersion {
  rows: number;
  /** The newest stored_at of those rows ("" when none). */
  maxStoredAt: string;
  maxFetchId: number;
}

export interface BankSpan {
  bankId: string;
  first: IsoDate;
  latest: IsoDate;
}

export interface CurrencyBanks {
  currency: string;
  /** Sorted by bank id. */
  banks: Array<{ bankId: string; since: IsoDate; latest: IsoDate }>;
}

/** A value now (SQLite, synchronous) or later (PostgreSQL). */
export type Eventually<T> = T | Promise<T>;

/**
 * A range's reads in one snapshot of the store, so that the version (the ETag) and the rows (the body)
 * are one state: SQLite's RangeReader, or src/store/history-postgres.ts's. Release it when the response ends.
 */
export interface RangeSnapshot {
  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Eventually<RowsVersion>;
  quotedIn(bankId: string, from: IsoDate, to: IsoDate, currencies: readonly string[]): Eventually<Set<string>>;
  /** The figures from `from` to `to` published with a warning, by date then currency. */
  warnings(bankId: string, from: IsoDate, to: IsoDate): Eventually<RateWarning[]>;
  range(
    bankId: string,
    from: IsoDate,
    to: IsoDate,
    currencies?: readonly string[],
  ): Iterable<HistoryRow[]> | AsyncIterable<HistoryRow[]>;
  release(): void;
}

/**
 * What the history handlers (src/serve/resources/history/) read: HistoryReader on SQLite (synchronous,
 * prepared statements), PostgresHistoryReader (src/store/history-postgres.ts) on PostgreSQL. `generation`
 * is the number the last refresh saw.
 */
export interface HistoryStore {
  refresh(): Eventually<number>;
  refreshThisTurn(): Eventually<number>;
  generation(): number;
  dates(bankId: string): Eventually<readonly IsoDate[]>;
  inForce(bankId: string, date: IsoDate, today: IsoDate, bridges?: Bridges): Eventually<InForce>;
  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Eventually<RowsVersion>;
  ratesWithVersion(
    bankId: string,
    date: IsoDate,
    currencies?: readonly string[],
  ): Eventually<{ rows: HistoryRow[]; version: RowsVersion }>;
  snapshot(): Eventually<RangeSnapshot>;
  /**
   * Every stored figure of a bank with its version (stored_at, fetch id), by date then currency: what
   * an in-memory index of its days is built from (src/store/day-index.ts).
   */
  bankRows(bankId: string): Eventually<Iterable<IndexRow>>;
  /** A period source's figures that may be in force within [from, to] (src/store/periods.ts), oldest first. */
  periodFigures(bankId: string, from: IsoDate, to: IsoDate): Eventually<PeriodFigure[]>;
  /** The figures from `from` to `to` published with a warning, by date then currency. */
  warnings(bankId: string, from: IsoDate, to: IsoDate): Eventually<RateWarning[]>;
  quoting(bankId: string): Eventually<{ baseCurrency: string; quoteType: QuoteType } | undefined>;
  banks(): Eventually<BankSpan[]>;
  lastFetchAt(): Eventually<string>;
  currencies(): Eventually<{ list: CurrencyBanks[]; maxStoredAt: string }>;
  close(): void;
}

/** The longest period a source publishes for (a quarter), with room: how far after a range to read amendments. */
const LONGEST_PERIOD_DAYS = 100;

/**
 * The statement reading the figures that may matter for [from, to]: every figure still valid on `from`
 * and starting before the period after `to` ends. Parameters: bank, from, to + LONGEST_PERIOD_DAYS.
 * `?` for SQLite; PostgreSQL's numbered form is made from it.
 */
export const PERIOD_FIGURES_SQL = `select effective_date as "effectiveDate", currency, rate, unit_multiplier as "unitMultiplier",
  valid_to as "validTo", stored_at as "storedAt", fetch_id as "fetchId"
  from rates where bank_id = ? and valid_to >= ? and effective_date <= ? order by effective_date, currency`;

export const PERIOD_FIGURES_PG = (() => {
  let n = 0;
  return PERIOD_FIGURES_SQL.replace(/\?/g, () => `$${++n}`);
})();

/** The parameters of PERIOD_FIGURES_SQL for a range (src/store/periods.ts decides what is in force). */
export const periodParameters = (bankId: string, from: IsoDate, to: IsoDate): [string, IsoDate, IsoDate] => [
  bankId,
  from,
  addDays(to, LONGEST_PERIOD_DAYS),
];

/** A date further than this from the set before it has no set in force, unless the caller says otherwise. */
export const PUBLICATION_GAP_DAYS = 14;

/**
 * Whether the set of `before` is still in force on `date` (before < date): the bank's normal gap,
 * decided by the caller (src/calendar/publication-gap.ts), never by the stored dates,
 * whose holes are not gaps of the bank.
 */
export type Bridges = (before: IsoDate, date: IsoDate) => boolean;

const withinDefaultGap: Bridges = (before, date) => dayNumber(date) - dayNumber(before) <= PUBLICATION_GAP_DAYS;
/** Rows read per statement while a range is streamed. */
const CHUNK_ROWS = 2048;

const ROW_COLUMNS = `effective_date as effectiveDate, currency, ${boundedRate()} as rate, unit_multiplier as unitMultiplier`;
/** A currency filter as one parameter: a JSON array, or null for every currency. */
const FILTER = "(? is null or currency in (select value from json_each(?)))";

const dayNumber = (date: IsoDate) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The greatest index i with dates[i] <= date, or -1. */
function floorIndex(dates: readonly IsoDate[], date: IsoDate): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid]! <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** HistoryReader.inForce over a bank's stored dates (oldest first) and its publication gap. */
export function inForceAmong(
  dates: readonly IsoDate[],
  date: IsoDate,
  today: IsoDate,
  bridges: Bridges = withinDefaultGap,
): InForce {
  if (dates.length === 0) return { kind: "none", reason: "no-data" };
  const i = floorIndex(dates, date);
  const reason =
    date > today
      ? "future"
      : i < 0
        ? "before-first"
        : dates[i] !== date && !bridges(dates[i]!, date)
          ? "gap"
          : undefined;
  if (reason)
    return {
      kind: "none",
      reason,
      first: dates[0]!,
      latest: dates[dates.length - 1]!,
      ...(i >= 0 ? { before: dates[i] } : {}),
      ...(i + 1 < dates.length ? { after: dates[i + 1] } : {}),
    };
  return { kind: "found", effectiveDate: dates[i]! };
}

export class HistoryReader implements HistoryStore {
  private readonly statements;
  private version = -1;
  private readonly datesCache = new Map<string, IsoDate[]>();
  private currenciesCache?: { list: CurrencyBanks[]; maxStoredAt: string };
  private banksCache?: BankSpan[];
  /** Each bank's currencies, kept across changes of other banks (reading them is a scan of the bank's rows). */
  private readonly bankCurrencies = new Map<
    string,
    { signature: string; rows: Array<{ currency: string; since: IsoDate; latest: IsoDate; maxStoredAt: string }> }
  >();
  private readonly quotingCache = new Map<string, { baseCurrency: string; quoteType: QuoteType } | undefined>();
  private readonly idleSnapshots: RangeReader[] = [];
  private checkedThisTurn = false;

  constructor(
    readonly sqlite: BetterSqlite3.Database,
    private readonly ownsConnection = false,
    private readonly manualRefresh = false,
  ) {
    this.statements = {
      dates: sqlite.prepare("select distinct effective_date from rates where bank_id = ? order by 1").pluck(),
      nextBank: sqlite.prepare("select bank_id from rates where bank_id > ? order by bank_id limit 1").pluck(),
      first: sqlite.prepare("select min(effective_date) from rates where bank_id = ?").pluck(),
      latest: sqlite.prepare("select max(effective_date) from rates where bank_id = ?").pluck(),
      on: sqlite.prepare(
        `select ${ROW_COLUMNS} from rates where bank_id = ? and effective_date = ? and ${FILTER} order by currency`,
      ),
      ...rangeStatements(sqlite),
      currenciesOf: sqlite.prepare(
        `select currency, min(effective_date) as since, max(effective_date) as latest, max(stored_at) as maxStoredAt
           from rates where bank_id = ? group by currency`,
      ),
      // What changes whenever a bank's rates do: a new answer or import (a fetch row), or a released figure.
      bankSignature: sqlite
        .prepare(
          `select (select coalesce(max(id), 0) from fetches where bank_id = ?) || '/' ||
                (select count(*) from anomalies where bank_id = ? and released_at is not null)`,
        )
        .pluck(),
      dataVersion: sqlite.prepare("pragma data_version").pluck(),
      lastFetch: sqlite
        .prepare("select coalesce(finished_at, started_at) from fetches order by id desc limit 1")
        .pluck(),
      ...dayStatements(sqlite),
      quoting: sqlite.prepare(
        "select base_currency as baseCurrency, quote_type as quoteType from bank_quoting where bank_id = ?",
      ),
      knownCurrency: sqlite.prepare("select 1 from rates where bank_id = ? and currency = ? limit 1").pluck(),
      bankRows: sqlite
        .prepare(
          `select effective_date, currency, ${BOUNDED_RATE}, unit_multiplier, stored_at, fetch_id from rates
            where bank_id = ? order by effective_date, currency`,
        )
        .raw(true),
      bankRowsAfter: sqlite
        .prepare(
          `select effective_date, currency, ${BOUNDED_RATE}, unit_multiplier, stored_at, fetch_id from rates
            where bank_id = ? and (effective_date, currency) > (?, ?) order by effective_date, currency limit ?`,
        )
        .raw(true),
    };
  }

  /** Opens the database read-only: no migration, no write, never a writer's lock. */
  static open(path: string, options: { manualRefresh?: boolean } = {}): HistoryReader {
    const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    return new HistoryReader(sqlite, true, options.manualRefresh ?? false);
  }

  close(): void {
    for (const snapshot of this.idleSnapshots.splice(0)) snapshot.close();
    if (this.ownsConnection) this.sqlite.close();
  }

  /** A number that changes whenever another connection has committed: what a cache of answers is valid for. */
  generation(): number {
    this.fresh();
    return this.version;
  }

  /** Drops the caches when another connection has committed since they were filled. */
  /**
   * Checks whether another connection has committed (dropping the caches if so) and returns the
   * generation. A reader opened with `manualRefresh` checks only here, once per request, rather than
   * at every lookup (the check is a statement of its own).
   */
  refresh(): number {
    this.check();
    return this.version;
  }

  /**
   * refresh, at most once per turn of the event loop: the requests a turn handles arrived together,
   * and under load a turn handles many (the check is a statement, a good part of a cached answer's
   * cost). A commit seen at the next turn is seen by every request read after it.
   */
  refreshThisTurn(): number {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      this.check();
      setImmediate(() => (this.checkedThisTurn = false));
    }
    return this.version;
  }

  private fresh(): void {
    if (!this.manualRefresh) this.check();
  }

  private check(): void {
    const version = this.statements.dataVersion.get() as number;
    if (version === this.version) return;
    this.version = version;
    this.datesCache.clear();
    this.quotingCache.clear();
    this.currenciesCache = undefined;
    this.banksCache = undefined;
  }

  /** The stored effective dates of a bank, oldest first. */
  dates(bankId: string): readonly IsoDate[] {
    this.fresh();
    let dates = this.datesCache.get(bankId);
    if (!dates) {
      dates = this.statements.dates.all(bankId) as IsoDate[];
      this.datesCache.set(bankId, dates);
    }
    return dates;
  }

  /**
   * The effective date whose set is in force on `date`: the newest stored one on or before it, unless
   * `date` is before the first, after `today`, or further from that set than `bridges` allows
   * (default: PUBLICATION_GAP_DAYS).
   */
  inForce(bankId: string, date: IsoDate, today: IsoDate, bridges?: Bridges): InForce {
    return inForceAmong(this.dates(bankId), date, today, bridges);
  }

  /** The rows of one effective date, sorted by currency; `currencies` keeps only those. */
  ratesOn(bankId: string, date: IsoDate, currencies?: readonly string[]): HistoryRow[] {
    const filter = currencies ? JSON.stringify(currencies) : null;
    return withinTextBound(bankId, this.statements.on.all(bankId, date, filter, filter) as HistoryRow[]);
  }

  /**
   * The rows of one effective date and their version, in one statement: the path of every dated
   * request that misses the server's cache. See `dayStatement` for why it is shaped as it is.
   */
  ratesWithVersion(
    bankId: string,
    date: IsoDate,
    currencies?: readonly string[],
  ): { rows: HistoryRow[]; version: RowsVersion } {
    if (currencies) {
      const filtered = filterDay(date, this.statements.dayRows.get(bankId, date) as string | null, currencies);
      return { rows: withinTextBound(bankId, filtered.rows), version: filtered.version };
    }
    const [count, maxStoredAt, maxFetchId, packed] = this.statements.day.get(bankId, date) as [
      number,
      string,
      number,
      string | null,
    ];
    const rows = withinTextBound(bankId, unpackDay(date, packed));
    return { rows, version: { rows: count, maxStoredAt, maxFetchId } };
  }

  /** Every row from `from` to `to` (inclusive), by date then currency, in chunks (see readRange). */
  range(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Generator<HistoryRow[]> {
    return readRange(this.statements, bankId, from, to, currencies);
  }

  /** How many rows a response reads, and the newest stored_at and fetch id among them. */
  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): RowsVersion {
    return rangeVersion(this.statements, bankId, from, to, currencies);
  }

  /** Which of `currencies` the bank quoted on some date from `from` to `to`. */
  quotedIn(bankId: string, from: IsoDate, to: IsoDate, currencies: readonly string[]): Set<string> {
    return rangeQuotedIn(this.statements, bankId, from, to, currencies);
  }

  /** Every stored figure of a bank with its version, by date then currency (one statement, one snapshot). */
  bankRows(bankId: string): IndexRow[] {
    return indexRowsWithinTextBound(bankId, this.statements.bankRows.all(bankId) as IndexRow[]);
  }

  /**
   * The next `limit` figures of a bank after (date, currency), in bankRows' order, and where the slice after
   * them starts (undefined: none left): bankRows read a slice at a time (a day index built in turns,
   * src/serve/resources/history/day-indexes.ts).
   */
  bankRowsAfter(
    bankId: string,
    date: IsoDate,
    currency: string,
    limit: number,
  ): { rows: IndexRow[]; next: [IsoDate, string] | undefined } {
    const read = this.statements.bankRowsAfter.all(bankId, date, currency, limit) as IndexRow[];
    const last = read.length === limit ? read[read.length - 1]! : undefined;
    return { rows: indexRowsWithinTextBound(bankId, read), next: last && [last[0], last[1]] };
  }

  /** A period source's figures that may be in force within [from, to] (src/store/periods.ts). */
  periodFigures(bankId: string, from: IsoDate, to: IsoDate): PeriodFigure[] {
    this.periodStatement ??= this.sqlite.prepare(PERIOD_FIGURES_SQL);
    return this.periodStatement.all(...periodParameters(bankId, from, to)) as PeriodFigure[];
  }
  private periodStatement?: BetterSqlite3.Statement;
  /** The figures from `from` to `to` published with a warning. */
  warnings(bankId: string, from: IsoDate, to: IsoDate): RateWarning[] {
    return this.statements.warnings.all(bankId, from, to) as RateWarning[];
  }

  /**
   * A read transaction on a connection of its own, for a range: its version, the currencies it holds
   * and its rows then all come from one state of the store (a WAL snapshot: the daemon keeps writing,
   * and nothing it commits meanwhile shows), so the body is exactly what its ETag names. Release it
   * when the response ends; up to IDLE_SNAPSHOTS connections are kept for the next ranges.
   */
  snapshot(): RangeReader {
    const snapshot = this.idleSnapshots.pop() ?? new RangeReader(this.sqlite.name, this);
    snapshot.begin();
    return snapshot;
  }

  /** Takes back a released snapshot's connection. */
  keep(snapshot: RangeReader): void {
    if (this.idleSnapshots.length < IDLE_SNAPSHOTS && this.sqlite.open) this.idleSnapshots.push(snapshot);
    else snapshot.close();
  }

  /** Whether the bank has ever quoted the currency. */
  quotes(bankId: string, currency: string): boolean {
    return this.statements.knownCurrency.get(bankId, currency) !== undefined;
  }

  /** How the bank quotes (recorded at ingest), or undefined for a bank that never ingested. */
  quoting(bankId: string): { baseCurrency: string; quoteType: QuoteType } | undefined {
    this.fresh();
    if (!this.quotingCache.has(bankId))
      this.quotingCache.set(
        bankId,
        this.statements.quoting.get(bankId) as { baseCurrency: string; quoteType: QuoteType } | undefined,
      );
    return this.quotingCache.get(bankId);
  }

  /** Every bank with stored rates, by id, with its first and latest stored dates. */
  banks(): BankSpan[] {
    this.fresh();
    if (!this.banksCache) {
      const out: BankSpan[] = [];
      // One primary-key seek per bank rather than a scan of every row.
      let id = this.statements.nextBank.get("") as string | undefined;
      while (id !== undefined) {
        out.push({
          bankId: id,
          first: this.statements.first.get(id) as IsoDate,
          latest: this.statements.latest.get(id) as IsoDate,
        });
        id = this.statements.nextBank.get(id) as string | undefined;
      }
      this.banksCache = out;
    }
    return this.banksCache;
  }

  /**
   * When the newest answer or import was stored: at or after the newest change to any stored rate (a
   * figure released from an anomaly is the exception), without reading the rates.
   */
  lastFetchAt(): string {
    return (this.statements.lastFetch.get() as string | undefined) ?? "";
  }

  /**
   * Every currency any bank quotes, by code, with each bank's first and latest date for it. A bank's
   * part is read again only when its signature (newest fetch, released figures) or its span has moved,
   * so one bank's ingest does not make every bank's rows be read.
   */
  currencies(): { list: CurrencyBanks[]; maxStoredAt: string } {
    this.fresh();
    if (!this.currenciesCache) {
      const byCurrency = new Map<string, CurrencyBanks["banks"]>();
      let maxStoredAt = "";
      const present = new Set<string>();
      for (const bank of this.banks()) {
        present.add(bank.bankId);
        const signature = `${String(this.statements.bankSignature.get(bank.bankId, bank.bankId))}/${bank.first}/${bank.latest}`;
        let entry = this.bankCurrencies.get(bank.bankId);
        if (entry?.signature !== signature) {
          entry = {
            signature,
            rows: this.statements.currenciesOf.all(bank.bankId) as Array<{
              currency: string;
              since: IsoDate;
              latest: IsoDate;
              maxStoredAt: string;
            }>,
          };
          this.bankCurrencies.set(bank.bankId, entry);
        }
        for (const r of entry.rows) {
          let banks = byCurrency.get(r.currency);
          if (!banks) byCurrency.set(r.currency, (banks = []));
          banks.push({ bankId: bank.bankId, since: r.since, latest: r.latest });
          if (r.maxStoredAt > maxStoredAt) maxStoredAt = r.maxStoredAt;
        }
      }
      for (const id of this.bankCurrencies.keys()) if (!present.has(id)) this.bankCurrencies.delete(id);
      const list = [...byCurrency.keys()].sort().map((currency) => ({ currency, banks: byCurrency.get(currency)! }));
      this.currenciesCache = { list, maxStoredAt };
    }
    return this.currenciesCache;
  }
}

// ---------------------------------------------------------------- ranges

/** Idle snapshot connections kept (a range needs one while it is written). */
const IDLE_SNAPSHOTS = 4;

/** The statements a range is read with, on one connection. */
function rangeStatements(sqlite: BetterSqlite3.Database) {
  return {
    warnings: sqlite.prepare(WARNINGS_SQL),
    // One packed row per chunk, as a date's rows are (see dayStatements): a third of the time.
    chunk: sqlite
      .prepare(
        `select ${pack("effective_date", "currency", "rate", "unit_multiplier")} from (
           select effective_date, currency, ${BOUNDED_RATE} as rate, unit_multiplier from rates
           where bank_id = ? and (effective_date, currency) > (?, ?) and effective_date <= ? and ${FILTER}
           order by effective_date, currency limit ${CHUNK_ROWS})`,
      )
      .pluck(),
    version: sqlite.prepare(
      `select count(*) as rows, coalesce(max(stored_at), '') as maxStoredAt, coalesce(max(fetch_id), 0) as maxFetchId
         from rates where bank_id = ? and effective_date between ? and ? and ${FILTER}`,
    ),
    quotedIn: sqlite
      .prepare(
        `select distinct currency from rates where bank_id = ? and effective_date between ? and ?
           and currency in (select value from json_each(?))`,
      )
      .pluck(),
  };
}
type RangeStatements = ReturnType<typeof rangeStatements>;

/**
 * Every row from `from` to `to` (inclusive), by date then currency, read CHUNK_ROWS at a time: each
 * chunk is one statement run to its end, so no statement stays open between two chunks.
 */
function* readRange(
  statements: RangeStatements,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): Generator<HistoryRow[]> {
  const filter = currencies ? JSON.stringify(currencies) : null;
  // Keyset start just before `from`: any currency code sorts after "".
  let afterDate = from;
  let afterCurrency = "";
  for (;;) {
    const rows = unpackChunk(
      statements.chunk.get(bankId, afterDate, afterCurrency, to, filter, filter) as string | null,
    );
    if (rows.length === 0) return;
    const kept = withinTextBound(bankId, rows);
    if (kept.length) yield kept;
    if (rows.length < CHUNK_ROWS) return;
    const last = rows[rows.length - 1]!;
    afterDate = last.effectiveDate;
    afterCurrency = last.currency;
  }
}

function rangeVersion(
  statements: RangeStatements,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): RowsVersion {
  const filter = currencies ? JSON.stringify(currencies) : null;
  return statements.version.get(bankId, from, to, filter, filter) as RowsVersion;
}

function rangeQuotedIn(
  statements: RangeStatements,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies: readonly string[],
): Set<string> {
  return new Set(statements.quotedIn.all(bankId, from, to, JSON.stringify(currencies)) as string[]);
}

/** A range's reads in one read transaction (HistoryReader.snapshot). */
export class RangeReader implements RangeSnapshot {
  private readonly sqlite: BetterSqlite3.Database;
  private readonly statements: RangeStatements;
  private open = false;

  constructor(
    path: string,
    private readonly owner: HistoryReader,
  ) {
    this.sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    this.sqlite.pragma("busy_timeout = 5000");
    this.statements = rangeStatements(this.sqlite);
  }

  /** Starts the read transaction: its snapshot is taken at the first read. */
  begin(): void {
    this.sqlite.exec("begin");
    this.open = true;
  }

  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): RowsVersion {
    return rangeVersion(this.statements, bankId, from, to, currencies);
  }

  quotedIn(bankId: string, from: IsoDate, to: IsoDate, currencies: readonly string[]): Set<string> {
    return rangeQuotedIn(this.statements, bankId, from, to, currencies);
  }

  warnings(bankId: string, from: IsoDate, to: IsoDate): RateWarning[] {
    return this.statements.warnings.all(bankId, from, to) as RateWarning[];
  }

  range(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Generator<HistoryRow[]> {
    return readRange(this.statements, bankId, from, to, currencies);
  }

  /** Ends the read transaction and gives the connection back (once; later calls do nothing). */
  release(): void {
    if (!this.open) return;
    this.open = false;
    this.sqlite.exec("commit");
    this.owner.keep(this);
  }

  close(): void {
    this.sqlite.close();
  }
}

// ---------------------------------------------------------------- the one-date fast path

/** Between two fields, and two rows: one split then gives every field (no code, decimal or digit holds it). */
const SEPARATOR = "\u001f";

/**
 * One date's rows as a single row: their count, newest stored_at and fetch id, and the rows packed in one
 * string (currency, rate, unit multiplier, currency, ...; one separator, which no code or decimal holds).
 * better-sqlite3 spends most of a 40-row read making one JavaScript string per column of each row (60
 * of ~70 microseconds); one packed string and a split take a third of that. group_concat is SQLite's
 * (PostgreSQL's is string_agg); the rows arrive in the primary key's order, which unpackDay checks.
 */
/** The columns of each row joined by SEPARATOR, and the rows too, in one string. */
const pack = (...columns: string[]) =>
  `group_concat(${columns.map((c) => (c === "rate" ? BOUNDED_RATE : c)).join(` || '${SEPARATOR}' || `)}, '${SEPARATOR}')`;

/**
 * A rate longer than the figure bounds allow is read as a stand-in one character too long: a figure
 * stored before the bounds existed (ten million digits) costs no more to read than any other, and the
 * stand-in, longer than any figure within the bounds, is then left out by withinTextBound, never served.
 * octet_length reads the value's length from its header, not its text (SQLite 3.43 on, PostgreSQL's
 * TOAST header): `substr` would read all ten million characters (SQLite walks the value's overflow
 * pages) at every statement of every request.
 */
export const BOUNDED_RATE = boundedRate();
function boundedRate(): string {
  return `(case when octet_length(rate) > ${FIGURE_BOUNDS.maxTextLength} then '${"9".repeat(FIGURE_BOUNDS.maxTextLength + 1)}' else rate end)`;
}

/** The rows whose rate text is within the bounds' length; the others are logged and left out. */
export function withinTextBound(bankId: string, rows: HistoryRow[]): HistoryRow[] {
  for (const r of rows)
    if (r.rate.length > FIGURE_BOUNDS.maxTextLength)
      return rows.filter((x) => x.rate.length <= FIGURE_BOUNDS.maxTextLength || figureUsable(bankId, x, "history"));
  return rows;
}

function dayStatements(sqlite: BetterSqlite3.Database) {
  return {
    day: sqlite
      .prepare(
        `select count(*), coalesce(max(stored_at), ''), coalesce(max(fetch_id), 0),
           ${pack("currency", "rate", "unit_multiplier")} from rates where bank_id = ? and effective_date = ?`,
      )
      .raw(true),
    // With a currency filter, each row's version too: the filter is applied here (a json_each filter in
    // the statement costs more than the whole read).
    dayRows: sqlite
      .prepare(
        `select ${pack("currency", "rate", "unit_multiplier", "stored_at", "fetch_id")}
           from rates where bank_id = ? and effective_date = ?`,
      )
      .pluck(),
  };
}

/** The rows packed by the dayRows statement that are of `currencies`, sorted by currency, and their version. */
function filterDay(
  date: IsoDate,
  packed: string | null,
  currencies: readonly string[],
): { rows: HistoryRow[]; version: RowsVersion } {
  const keep = new Set(currencies);
  const rows: HistoryRow[] = [];
  const version: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
  const fields = packed ? packed.split(SEPARATOR) : [];
  for (let i = 0; i + 4 < fields.length; i += 5) {
    const currency = fields[i]!;
    if (!keep.has(currency)) continue;
    rows.push({ effectiveDate: date, currency, rate: fields[i + 1]!, unitMultiplier: Number(fields[i + 2]) });
    version.rows++;
    if (fields[i + 3]! > version.maxStoredAt) version.maxStoredAt = fields[i + 3]!;
    version.maxFetchId = Math.max(version.maxFetchId, Number(fields[i + 4]));
  }
  return { rows: rows.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)), version };
}

/** The rows of a range chunk (date, currency, rate, unit), by date then currency. */
function unpackChunk(packed: string | null): HistoryRow[] {
  if (!packed) return [];
  const fields = packed.split(SEPARATOR);
  const rows: HistoryRow[] = [];
  let sorted = true;
  let previous = "";
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const effectiveDate = fields[i]!;
    const currency = fields[i + 1]!;
    const key = `${effectiveDate} ${currency}`;
    if (key < previous) sorted = false;
    previous = key;
    rows.push({ effectiveDate, currency, rate: fields[i + 2]!, unitMultiplier: Number(fields[i + 3]) });
  }
  if (!sorted)
    rows.sort((a, b) =>
      a.effectiveDate !== b.effectiveDate
        ? a.effectiveDate < b.effectiveDate
          ? -1
          : 1
        : a.currency < b.currency
          ? -1
          : a.currency > b.currency
            ? 1
            : 0,
    );
  return rows;
}

/** The rows packed by the day statement, sorted by currency. */
function unpackDay(date: IsoDate, packed: string | null): HistoryRow[] {
  if (!packed) return [];
  const fields = packed.split(SEPARATOR);
  const rows: HistoryRow[] = [];
  let sorted = true;
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const currency = fields[i]!;
    if (sorted && rows.length && rows[rows.length - 1]!.currency > currency) sorted = false;
    rows.push({ effectiveDate: date, currency, rate: fields[i + 1]!, unitMultiplier: Number(fields[i + 2]) });
  }
  return sorted ? rows : rows.sort((a, b) => (a.currency < b.currency ? -1 : 1));
}

/** withinTextBound for the day index's rows (date, currency, rate, ...). */
export function indexRowsWithinTextBound(bankId: string, rows: IndexRow[]): IndexRow[] {
  const max = FIGURE_BOUNDS.maxTextLength;
  for (const r of rows)
    if (r[2].length > max)
      return rows.filter(
        (x) =>
          x[2].length <= max || figureUsable(bankId, { effectiveDate: x[0], currency: x[1], rate: x[2] }, "history"),
      );
  return rows;
}

/** A strong ETag naming a version of the data behind a response and the request that shaped it. */
export function historyEtag(...parts: Array<string | number>): string {
  // crypto.hash: the one-shot digest, several times faster than a Hash object on a short string.
  const sha = hash("sha256", parts.join("\u0000"), "base64url");
  return `"h-${sha.slice(0, 27)}"`;
}
