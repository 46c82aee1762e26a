// What the status page shows, read when it is rendered: each known bank's row (from the scheduler's
// status under `exrates start`, else from what is published) and its main currency over the last days
// (USD, else EUR), from the store: a SQLite file read-only, or a shared PostgreSQL store.
import Database from "better-sqlite3";

import { publicIdOf } from "../../../feed/sources.js";
import type { Store } from "../../../store/database.js";
import type { BankResource } from "../../../types.js";
import type { LoadedTree } from "../../state/tree.js";

const MAIN_CURRENCIES = ["USD", "EUR"];

/** The fields of a status row the page shows (src/schedule/status.ts's BankStatus). */
export interface Row {
  id: string;
  name: string;
  state: string;
  /** The status's line for people ("holiday: Good Friday …", "late by 2 h 05 min: …"), when there is one. */
  summary: string | null;
  /** Daily, or a period source's Weekly, Monthly, Quarterly. */
  frequency: string;
  newestDate: string | null;
  nextRunAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface Point {
  date: string;
  value: number;
}

export interface Series {
  currency: string;
  points: Point[];
}

/** Every known bank's row, by id: the scheduler's, or (no scheduler) published or not. */
export async function bankRows(
  tree: LoadedTree | undefined,
  knownBanks: (() => Promise<ReadonlyMap<string, BankResource>>) | undefined,
  status: (() => Promise<unknown[]>) | undefined,
): Promise<Row[]> {
  const known = (await knownBanks?.()) ?? new Map<string, BankResource>();
  if (status) {
    return (await status()).map((r) => {
      const row = r as Partial<Row> & { id: string };
      return {
        id: publicIdOf(row.id),
        name: row.name ?? known.get(row.id)?.name[0]?.name ?? row.id,
        state: row.state ?? "unknown",
        summary: row.summary ?? null,
        frequency: row.frequency ?? known.get(row.id)?.supportedFrequencies[0] ?? "Daily",
        newestDate: row.newestDate ?? null,
        nextRunAt: row.nextRunAt ?? null,
        lastError: row.lastError ?? null,
        lastErrorAt: row.lastErrorAt ?? null,
      };
    });
  }
  const ids = [...new Set([...known.keys(), ...(tree?.banks.keys() ?? [])])].sort();
  return ids.map((id) => {
    const published = tree?.banks.get(id)?.effectiveDate ?? null;
    return {
      id: publicIdOf(id),
      name: known.get(id)?.name[0]?.name ?? id,
      state: published ? "published" : "not published",
      summary: null,
      frequency: tree?.banks.get(id)?.frequency ?? known.get(id)?.supportedFrequencies[0] ?? "Daily",
      newestDate: published,
      nextRunAt: null,
      lastError: null,
      lastErrorAt: null,
    };
  });
}

type SeriesRow = { date: string; rate: string; unit: number };

const toSeries = (currency: string, rows: SeriesRow[]): Series => ({
  currency,
  points: rows.map((r) => ({ date: r.date, value: Number(r.rate) / 10 ** Number(r.unit) })),
});

/** A bank's main currency since a date, from a store that may come and go (undefined: no chart). */
export class SeriesReader {
  private db: Database.Database | undefined;

  constructor(
    private readonly databasePath: string,
    private readonly shared: Store | undefined,
  ) {}

  async series(bankId: string, since: string): Promise<Series | undefined> {
    return this.shared ? this.sharedSeries(this.shared, bankId, since) : this.sqliteSeries(bankId, since);
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  private async sharedSeries(shared: Store, bankId: string, since: string): Promise<Series | undefined> {
    try {
      for (const currency of MAIN_CURRENCIES) {
        const rows = await shared.db
          .selectFrom("rates")
          .select(["effective_date as date", "rate", "unit_multiplier as unit"])
          .where("bank_id", "=", bankId)
          .where("effective_date", ">=", since)
          .where("currency", "=", currency)
          .orderBy("effective_date")
          .execute();
        if (rows.length > 0) return toSeries(currency, rows);
      }
    } catch {
      // The database unreachable for a moment: no chart this time.
    }
    return undefined;
  }

  private sqliteSeries(bankId: string, since: string): Series | undefined {
    const conn = this.open();
    if (!conn) return undefined;
    try {
      const query = conn.prepare(
        "select effective_date as date, rate, unit_multiplier as unit from rates where bank_id = ? and effective_date >= ? and currency = ? order by effective_date",
      );
      for (const currency of MAIN_CURRENCIES) {
        const rows = query.all(bankId, since, currency) as SeriesRow[];
        if (rows.length > 0) return toSeries(currency, rows);
      }
    } catch {
      // A store being migrated or replaced: no chart this time.
    }
    return undefined;
  }

  private open(): Database.Database | undefined {
    if (this.db) return this.db;
    try {
      this.db = new Database(this.databasePath, { readonly: true, fileMustExist: true });
      this.db.pragma("busy_timeout = 1000");
    } catch {
      this.db = undefined;
    }
    return this.db;
  }
}
