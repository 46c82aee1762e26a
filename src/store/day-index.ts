// One bank's stored days in memory, compact: what a dated lookup that misses the server's cache of
// answers reads instead of the store (src/serve/resources/history/day-indexes.ts keeps them current).
//
// Columns, one entry per stored figure, by date then currency, in typed arrays rather than an object
// per figure (a figure costs about 8 bytes, not ~150): the currency (index into the bank's codes),
// the rate's digits as an integer and a "shape" (the number of decimals and the unit multiplier, index
// into the bank's few shapes), and the figure's version (index into the bank's distinct stored_at and
// fetch id pairs). The rate's text is made again from digits and decimals exactly as stored ("0.0450"
// stays "0.0450"); a text that would not come back the same (too many digits, another spelling) is
// kept as it is, apart. Never a float.
import type { IsoDate } from "../types.js";
import type { HistoryRow, RateWarning, RowsVersion } from "./history.js";

/** One stored figure as the index is fed: date, currency, rate, unit multiplier, stored_at, fetch id. */
export type IndexRow = readonly [IsoDate, string, string, number, string, number];

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const dayNumber = (date: IsoDate) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** A rate's text from its digits and its number of decimals: the inverse of splitting "12.3400" into 123400 and 4. */
export function rateText(digits: number, decimals: number): string {
  let text = String(digits);
  if (decimals === 0) return text;
  if (text.length <= decimals) text = "0".repeat(decimals - text.length + 1) + text;
  return `${text.slice(0, text.length - decimals)}.${text.slice(text.length - decimals)}`;
}

/** The digits and decimals of a rate's text, or undefined when rateText would not give it back exactly. */
function splitRate(text: string): { digits: number; decimals: number } | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const digits = Number(m[1]! + (m[2] ?? ""));
  const decimals = m[2]?.length ?? 0;
  if (!Number.isSafeInteger(digits) || rateText(digits, decimals) !== text) return undefined;
  return { digits, decimals };
}

/** The smallest unsigned array holding indexes below `size`. */
function indexArray(values: readonly number[], size: number): Uint8Array | Uint16Array | Uint32Array {
  return size <= 0x100
    ? Uint8Array.from(values)
    : size <= 0x10000
      ? Uint16Array.from(values)
      : Uint32Array.from(values);
}

/** Interns values, giving each distinct one an index. */
class Table<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();
  of(key: string, value: T): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(key, i);
    }
    return i;
  }
}

interface Shape {
  decimals: number;
  unitMultiplier: number;
}
interface Version {
  storedAt: string;
  fetchId: number;
}

export class BankDays {
  private constructor(
    /** Each stored date as a day number, ascending. */
    private readonly days: Int32Array,
    /** The first figure of each day (and one past the last). */
    private readonly starts: Uint32Array,
    private readonly currency: Uint8Array | Uint16Array | Uint32Array,
    private readonly currencies: readonly string[],
    private readonly digits: Uint32Array | Float64Array,
    private readonly shape: Uint8Array | Uint16Array | Uint32Array,
    private readonly shapes: readonly Shape[],
    private readonly version: Uint8Array | Uint16Array | Uint32Array,
    private readonly versions: readonly Version[],
    /** Rates whose text is kept as it is (by figure). */
    private readonly verbatim: ReadonlyMap<number, string>,
    private readonly warned: ReadonlyMap<IsoDate, RateWarning[]>,
    /** What the index was built from: the store's version of every row of the bank, and its warnings. */
    readonly fingerprint: string,
  ) {}

  /**
   * The index of rows read by date then currency (as the primary key orders them) and the bank's
   * warned figures; `rows` may come in another order, they are sorted.
   */
  static build(rows: Iterable<IndexRow>, warnings: readonly RateWarning[]): BankDays {
    const all = [...rows].sort((a, b) =>
      a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
    );
    const days: number[] = [];
    const starts: number[] = [];
    const currencies = new Table<string>();
    const shapes = new Table<Shape>();
    const versions = new Table<Version>();
    const currency: number[] = [];
    const digits: number[] = [];
    const shape: number[] = [];
    const version: number[] = [];
    const verbatim = new Map<number, string>();
    let previous = "";
    let maxDigits = 0;
    const whole: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    all.forEach(([date, code, rate, unitMultiplier, storedAt, fetchId], i) => {
      if (date !== previous) {
        days.push(dayNumber(date));
        starts.push(i);
        previous = date;
      }
      currency.push(currencies.of(code, code));
      const split = splitRate(rate);
      if (!split) verbatim.set(i, rate);
      const decimals = split?.decimals ?? 0;
      digits.push(split?.digits ?? 0);
      maxDigits = Math.max(maxDigits, split?.digits ?? 0);
      shape.push(shapes.of(`${decimals} ${unitMultiplier}`, { decimals, unitMultiplier }));
      version.push(versions.of(`${storedAt} ${fetchId}`, { storedAt, fetchId }));
      addVersion(whole, storedAt, fetchId);
    });
    starts.push(all.length);
    const warned = new Map<IsoDate, RateWarning[]>();
    for (const w of warnings) {
      let list = warned.get(w.effectiveDate);
      if (!list) warned.set(w.effectiveDate, (list = []));
      list.push(w);
    }
    return new BankDays(
      Int32Array.from(days),
      Uint32Array.from(starts),
      indexArray(currency, currencies.values.length),
      currencies.values,
      maxDigits <= 0xffffffff ? Uint32Array.from(digits) : Float64Array.from(digits),
      indexArray(shape, shapes.values.length),
      shapes.values,
      indexArray(version, versions.values.length),
      versions.values,
      verbatim,
      warned,
      bankFingerprint(whole, warnings),
    );
  }

  /** The figures held. */
  get size(): number {
    return this.currency.length;
  }

  /** About how many bytes the index holds (its arrays, tables and kept texts). */
  get bytes(): number {
    const arrays = [this.days, this.starts, this.currency, this.digits, this.shape, this.version];
    let bytes = arrays.reduce((n, a) => n + a.byteLength, 0);
    bytes += this.currencies.length * 24 + this.shapes.length * 48 + this.versions.length * 80;
    bytes += this.verbatim.size * 64 + [...this.warned.values()].reduce((n, l) => n + l.length * 160, 0);
    return bytes;
  }

  /** The figures of one stored date, of `currencies` only when given, sorted by currency, and their version. */
  day(date: IsoDate, currencies?: readonly string[]): { rows: HistoryRow[]; version: RowsVersion } {
    const rows: HistoryRow[] = [];
    const version: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    const d = this.dayOf(date);
    if (d < 0) return { rows, version };
    const keep = currencies ? new Set(currencies) : undefined;
    for (let i = this.starts[d]!; i < this.starts[d + 1]!; i++) {
      const code = this.currencies[this.currency[i]!]!;
      if (keep && !keep.has(code)) continue;
      const { decimals, unitMultiplier } = this.shapes[this.shape[i]!]!;
      const rate = this.verbatim.get(i) ?? rateText(this.digits[i]!, decimals);
      rows.push({ effectiveDate: date, currency: code, rate, unitMultiplier });
      const v = this.versions[this.version[i]!]!;
      addVersion(version, v.storedAt, v.fetchId);
    }
    return { rows, version };
  }

  /** The version of one stored date's figures (of `currencies` only when given). */
  versionOf(date: IsoDate, currencies?: readonly string[]): RowsVersion {
    const version: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    const d = this.dayOf(date);
    if (d < 0) return version;
    const keep = currencies ? new Set(currencies) : undefined;
    for (let i = this.starts[d]!; i < this.starts[d + 1]!; i++) {
      if (keep && !keep.has(this.currencies[this.currency[i]!]!)) continue;
      const v = this.versions[this.version[i]!]!;
      addVersion(version, v.storedAt, v.fetchId);
    }
    return version;
  }

  /** The figures of one date published with a warning, as the store gives them (by currency). */
  warnings(date: IsoDate): RateWarning[] {
    return this.warned.get(date) ?? [];
  }

  /** The position of a stored date, or -1. */
  private dayOf(date: IsoDate): number {
    const n = dayNumber(date);
    let lo = 0;
    let hi = this.days.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.days[mid]!;
      if (v === n) return mid;
      if (v < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

function addVersion(version: RowsVersion, storedAt: string, fetchId: number): void {
  version.rows++;
  if (storedAt > version.maxStoredAt) version.maxStoredAt = storedAt;
  if (fetchId > version.maxFetchId) version.maxFetchId = fetchId;
}

/**
 * What an index of a bank is current for: the version of all its rows (count, newest stored_at and
 * fetch id: what every dated ETag is made of) and its warned figures.
 */
export function bankFingerprint(version: RowsVersion, warnings: readonly RateWarning[]): string {
  const warned = warnings.map((w) => `${w.effectiveDate} ${w.currency} ${w.reason}`).join("\n");
  return `${version.rows}/${version.maxStoredAt}/${version.maxFetchId}\n${warned}`;
}
