// The history endpoints' reads on a shared PostgreSQL store (a replica's): the same answers as
// HistoryReader (src/store/history.ts) gives on SQLite, as async statements on the store's pool, read
// only. SQLite's `PRAGMA data_version` has no PostgreSQL counterpart; the caches here are dropped when a
// cheap marker moves instead: the newest fetch id (every ingest or import writes a fetch row, and the
// quoting with it) and the count of released anomalies (a release changes rates without a fetch). The
// marker is read at most once per turn of the event loop. A range is read in one REPEATABLE READ READ
// ONLY transaction on a pool client of its own, in keyset chunks, so its version (the ETag) and its
// rows (the body) are one snapshot while other instances write.
import type pg from "pg";

import type { IsoDate, QuoteType } from "../types.js";
import type { PostgresStore } from "./database.js";
import {
  inForceAmong,
  PERIOD_FIGURES_PG,
  periodParameters,
  type Bridges,
  type BankSpan,
  type CurrencyBanks,
  type HistoryRow,
  type IndexRow,
  BOUNDED_RATE,
  indexRowsWithinTextBound,
  withinTextBound,
  type HistoryStore,
  type InForce,
  type PeriodFigure,
  type RangeSnapshot,
  type RateWarning,
  type RowsVersion,
  WARNINGS_SQL,
} from "./history.js";

/** Rows read per statement while a range is streamed (as on SQLite). */
const CHUNK_ROWS = 2048;

/** Anything that runs a query: the pool, or one client inside a transaction. */
type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

/** A currency filter as one parameter: a text array, or null for every currency. */
const FILTER = "($4::text[] is null or currency = any($4::text[]))";

interface DayRow {
  currency: string;
  rate: string;
  unitMultiplier: number;
  storedAt: string;
  fetchId: number;
}

async function rangeVersion(
  db: Queryable,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): Promise<RowsVersion> {
  const result = await db.query<RowsVersion>(
    `select count(*)::int as "rows", coalesce(max(stored_at), '') as "maxStoredAt",
            coalesce(max(fetch_id), 0)::int as "maxFetchId"
       from rates where bank_id = $1 and effective_date between $2 and $3 and ${FILTER}`,
    [bankId, from, to, currencies ?? null],
  );
  return result.rows[0]!;
}

async function rangeQuotedIn(
  db: Queryable,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies: readonly string[],
): Promise<Set<string>> {
  const result = await db.query<{ currency: string }>(
    `select distinct currency from rates
      where bank_id = $1 and effective_date between $2 and $3 and currency = any($4::text[])`,
    [bankId, from, to, currencies],
  );
  return new Set(result.rows.map((r) => r.currency));
}

/** The figures from `from` to `to` published with a warning (WARNINGS_SQL with numbered placeholders). */
async function rangeWarnings(db: Queryable, bankId: string, from: IsoDate, to: IsoDate): Promise<RateWarning[]> {
  let n = 0;
  const result = await db.query<RateWarning>(
    WARNINGS_SQL.replace(/\?/g, () => `$${++n}`),
    [bankId, from, to],
  );
  return result.rows;
}

/** Every row from `from` to `to`, by date then currency, CHUNK_ROWS at a time (keyset: no open cursor). */
async function* readRange(
  db: Queryable,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): AsyncGenerator<HistoryRow[]> {
  let afterDate = from;
  // Any currency code sorts after "".
  let afterCurrency = "";
  for (;;) {
    // collate "C": the byte order SQLite sorts by, whatever the database's collation.
    const result = await db.query<HistoryRow>(
      `select effective_date as "effectiveDate", currency, ${BOUNDED_RATE} as rate, unit_multiplier as "unitMultiplier"
         from rates
        where bank_id = $1 and (effective_date, currency collate "C") > ($2, $3 collate "C")
          and effective_date <= $5 and ${FILTER}
        order by effective_date, currency collate "C" limit ${CHUNK_ROWS}`,
      [bankId, afterDate, afterCurrency, currencies ?? null, to],
    );
    const rows = result.rows;
    if (rows.length === 0) return;
    const kept = withinTextBound(bankId, rows);
    if (kept.length) yield kept;
    if (rows.length < CHUNK_ROWS) return;
    const last = rows[rows.length - 1]!;
    afterDate = last.effectiveDate;
    afterCurrency = last.currency;
  }
}

/** A range's reads in one REPEATABLE READ READ ONLY transaction on a client of its own. */
class PostgresRangeSnapshot implements RangeSnapshot {
  private released = false;

  constructor(private readonly client: pg.PoolClient) {}

  static async begin(pool: pg.Pool): Promise<PostgresRangeSnapshot> {
    const client = await pool.connect();
    try {
      await client.query("begin isolation level repeatable read read only");
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    return new PostgresRangeSnapshot(client);
  }

  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Promise<RowsVersion> {
    return rangeVersion(this.client, bankId, from, to, currencies);
  }

  quotedIn(bankId: string, from: IsoDate, to: IsoDate, currencies: readonly string[]): Promise<Set<string>> {
    return rangeQuotedIn(this.client, bankId, from, to, currencies);
  }

  range(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): AsyncGenerator<HistoryRow[]> {
    return readRange(this.client, bankId, from, to, currencies);
  }

  warnings(bankId: string, from: IsoDate, to: IsoDate): Promise<RateWarning[]> {
    return rangeWarnings(this.client, bankId, from, to);
  }

  /**
   * Ends the transaction and gives the client back to the pool (once; later calls do nothing). A chunk
   * still running is waited for: pg queues the commit behind it. A client whose commit fails is dropped.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.client.query("commit").then(
      () => this.client.release(),
      (error: Error) => this.client.release(error),
    );
  }
}

export class PostgresHistoryReader implements HistoryStore {
  readonly pool: pg.Pool;
  private version = 0;
  private marker: string | undefined;
  private checking: Promise<number> | undefined;
  private readonly datesCache = new Map<string, Promise<IsoDate[]>>();
  private readonly quotingCache = new Map<
    string,
    Promise<{ baseCurrency: string; quoteType: QuoteType } | undefined>
  >();
  private banksCache?: Promise<BankSpan[]>;
  private currenciesCache?: Promise<{ list: CurrencyBanks[]; maxStoredAt: string }>;

  constructor(store: PostgresStore) {
    this.pool = store.pool;
  }

  /** The store is the server's: nothing of its own to close. */
  close(): void {}

  generation(): number {
    return this.version;
  }

  /** Reads the marker (once per turn of the event loop: requests arriving together share the read). */
  refresh(): Promise<number> {
    return this.refreshThisTurn();
  }

  refreshThisTurn(): Promise<number> {
    if (!this.checking) {
      this.checking = this.check();
      setImmediate(() => (this.checking = undefined));
    }
    return this.checking;
  }

  private async check(): Promise<number> {
    const result = await this.pool.query<{ marker: string }>(
      `select (select coalesce(max(id), 0) from fetches) || '/' ||
              (select count(*) from anomalies where released_at is not null) as marker`,
    );
    const marker = result.rows[0]!.marker;
    if (marker !== this.marker) {
      this.marker = marker;
      this.version++;
      this.datesCache.clear();
      this.quotingCache.clear();
      this.banksCache = undefined;
      this.currenciesCache = undefined;
    }
    return this.version;
  }

  /** A cached read, dropped if it failed (so that the next request tries again). */
  private cached<K, V>(cache: Map<K, Promise<V>>, key: K, read: () => Promise<V>): Promise<V> {
    let entry = cache.get(key);
    if (!entry) {
      entry = read();
      cache.set(key, entry);
      entry.catch(() => {
        if (cache.get(key) === entry) cache.delete(key);
      });
    }
    return entry;
  }

  dates(bankId: string): Promise<readonly IsoDate[]> {
    return this.cached(this.datesCache, bankId, async () => {
      const result = await this.pool.query<{ d: IsoDate }>(
        "select distinct effective_date as d from rates where bank_id = $1 order by 1",
        [bankId],
      );
      return result.rows.map((r) => r.d);
    });
  }

  async inForce(bankId: string, date: IsoDate, today: IsoDate, bridges?: Bridges): Promise<InForce> {
    return inForceAmong(await this.dates(bankId), date, today, bridges);
  }

  versionOf(bankId: string, from: IsoDate, to: IsoDate, currencies?: readonly string[]): Promise<RowsVersion> {
    return rangeVersion(this.pool, bankId, from, to, currencies);
  }

  /** The rows of one date, sorted by currency, and their version, from one statement (one snapshot). */
  async ratesWithVersion(
    bankId: string,
    date: IsoDate,
    currencies?: readonly string[],
  ): Promise<{ rows: HistoryRow[]; version: RowsVersion }> {
    const result = await this.pool.query<DayRow>(
      `select currency, ${BOUNDED_RATE} as rate, unit_multiplier as "unitMultiplier", stored_at as "storedAt", fetch_id as "fetchId"
         from rates where bank_id = $1 and effective_date = $2 and ($3::text[] is null or currency = any($3::text[]))
        order by currency collate "C"`,
      [bankId, date, currencies ?? null],
    );
    const version: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    const rows: HistoryRow[] = result.rows.map((r) => {
      version.rows++;
      if (r.storedAt > version.maxStoredAt) version.maxStoredAt = r.storedAt;
      version.maxFetchId = Math.max(version.maxFetchId, r.fetchId);
      return { effectiveDate: date, currency: r.currency, rate: r.rate, unitMultiplier: r.unitMultiplier };
    });
    return { rows: withinTextBound(bankId, rows), version };
  }

  /** Every stored figure of a bank with its version, by date then currency. */
  async bankRows(bankId: string): Promise<IndexRow[]> {
    const result = await this.pool.query<[IsoDate, string, string, number, string, number]>({
      rowMode: "array" as const,
      text: `select effective_date, currency, ${BOUNDED_RATE}, unit_multiplier, stored_at, fetch_id from rates
              where bank_id = $1 order by effective_date, currency collate "C"`,
      values: [bankId],
    });
    return indexRowsWithinTextBound(bankId, result.rows);
  }

  async periodFigures(bankId: string, from: IsoDate, to: IsoDate): Promise<PeriodFigure[]> {
    const result = await this.pool.query<PeriodFigure>(PERIOD_FIGURES_PG, periodParameters(bankId, from, to));
    return result.rows;
  }

  snapshot(): Promise<RangeSnapshot> {
    return PostgresRangeSnapshot.begin(this.pool);
  }

  warnings(bankId: string, from: IsoDate, to: IsoDate): Promise<RateWarning[]> {
    return rangeWarnings(this.pool, bankId, from, to);
  }

  quoting(bankId: string): Promise<{ baseCurrency: string; quoteType: QuoteType } | undefined> {
    return this.cached(this.quotingCache, bankId, async () => {
      const result = await this.pool.query<{ baseCurrency: string; quoteType: QuoteType }>(
        `select base_currency as "baseCurrency", quote_type as "quoteType" from bank_quoting where bank_id = $1`,
        [bankId],
      );
      return result.rows[0];
    });
  }

  banks(): Promise<BankSpan[]> {
    if (!this.banksCache) {
      const read = this.pool
        .query<BankSpan>(
          `select bank_id as "bankId", min(effective_date) as "first", max(effective_date) as "latest"
             from rates group by bank_id order by bank_id collate "C"`,
        )
        .then((r) => r.rows);
      this.banksCache = read;
      read.catch(() => {
        if (this.banksCache === read) this.banksCache = undefined;
      });
    }
    return this.banksCache;
  }

  async lastFetchAt(): Promise<string> {
    const result = await this.pool.query<{ at: string }>(
      "select coalesce(finished_at, started_at) as at from fetches order by id desc limit 1",
    );
    return result.rows[0]?.at ?? "";
  }

  /** Every currency any bank quotes, by code, with each bank's first and latest date for it. */
  currencies(): Promise<{ list: CurrencyBanks[]; maxStoredAt: string }> {
    if (!this.currenciesCache) {
      const read = this.readCurrencies();
      this.currenciesCache = read;
      read.catch(() => {
        if (this.currenciesCache === read) this.currenciesCache = undefined;
      });
    }
    return this.currenciesCache;
  }

  private async readCurrencies(): Promise<{ list: CurrencyBanks[]; maxStoredAt: string }> {
    const result = await this.pool.query<{
      bankId: string;
      currency: string;
      since: IsoDate;
      latest: IsoDate;
      maxStoredAt: string;
    }>(
      `select bank_id as "bankId", currency, min(effective_date) as since, max(effective_date) as latest,
              max(stored_at) as "maxStoredAt"
         from rates group by bank_id, currency order by currency collate "C", bank_id collate "C"`,
    );
    const byCurrency = new Map<string, CurrencyBanks["banks"]>();
    let maxStoredAt = "";
    for (const r of result.rows) {
      let banks = byCurrency.get(r.currency);
      if (!banks) byCurrency.set(r.currency, (banks = []));
      banks.push({ bankId: r.bankId, since: r.since, latest: r.latest });
      if (r.maxStoredAt > maxStoredAt) maxStoredAt = r.maxStoredAt;
    }
    return { list: [...byCurrency].map(([currency, banks]) => ({ currency, banks })), maxStoredAt };
  }
}
