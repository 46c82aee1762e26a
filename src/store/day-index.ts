// One bank's stored days in memory, compact: what a dated lookup that misses the server's cache of
// answers reads instead of the store (src/serve/resources/history/day-indexes.ts keeps them current).
//
// Columns, one entry per stored figure, by date then currency, in typed arrays rather than an object
// per figure (a figure costs about 7 bytes, not ~150): the currency (index into the bank's codes),
// the rate's digits as an integer and a "shape" (the number of decimals and the unit multiplier, index
// into the bank's few shapes). A figure's version (stored_at, fetch id: what ETags are made of) is
// kept per day, since a day's figures nearly always share one, and per figure only for a day whose
// figures differ. The rate's text is made again from digits and decimals exactly as stored ("0.0450"
// stays "0.0450"); a text that would not come back the same (too many digits, another spelling) is
// kept as it is, apart. Never a float.
import type { IsoDate } from "../types.js";
import type { HistoryRow, IndexRow, RateWarning, RowsVersion } from "./history.js";

const dayNumber = (date: IsoDate) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** A rate's text from its digits and its number of decimals: the inverse of splitting "12.3400" into 123400 and 4. */
export function rateText(digits: number, decimals: number): string {
  let text = String(digits);
  if (decimals === 0) return text;
  if (text.length <= decimals) text = "0".repeat(decimals - text.length + 1) + text;
  return `${text.slice(0, text.length - decimals)}.${text.slice(text.length - decimals)}`;
}

/** The largest count of digits that is always an exact integer in a double. */
const EXACT_DIGITS = 15;
/** Rows a sliced build (BankDays.buildInTurns) adds between two turns of the event loop: ~5 ms on a quiet core. */
const BUILD_SLICE = 4096;

/** The digits of the last text splitRate split. */
let splitDigits = 0;

/**
 * The number of decimals of a rate's text, its digits left in splitDigits; -1 when rateText would not
 * give the text back exactly (a sign, an exponent, a leading zero, more than EXACT_DIGITS digits). A
 * loop over the characters, allocating nothing: this runs for every figure of a bank when its index is built.
 */
function splitRate(text: string): number {
  let digits = 0;
  let count = 0;
  let point = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ && point < 0 && i > 0) point = i;
    else if (c >= 48 && c <= 57) {
      digits = digits * 10 + (c - 48);
      count++;
    } else return -1;
  }
  const integerPart = point < 0 ? text.length : point;
  if (count === 0 || count > EXACT_DIGITS || point === text.length - 1) return -1;
  if (integerPart > 1 && text.charCodeAt(0) === 48) return -1;
  splitDigits = digits;
  return point < 0 ? 0 : text.length - point - 1;
}

/** The smallest unsigned array holding indexes below `size`. */
function indexArray(values: Uint32Array, size: number): Uint8Array | Uint16Array | Uint32Array {
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
  /** Made by BankDaysBuilder (BankDays.build, buildInTurns, builder). */
  constructor(
    /** Each stored date as a day number, ascending. */
    private readonly days: Int32Array,
    /** The first figure of each day (and one past the last). */
    private readonly starts: Uint32Array,
    private readonly currency: Uint8Array | Uint16Array | Uint32Array,
    private readonly currencies: readonly string[],
    private readonly digits: Uint32Array | Float64Array,
    private readonly shape: Uint8Array | Uint16Array | Uint32Array,
    private readonly shapes: readonly Shape[],
    private readonly versions: Versions,
    /** Each day's version, when all its figures have the same (nearly always), else MIXED. */
    private readonly dayVersion: Uint32Array,
    /** The version of each figure of a day whose figures differ in version (by day). */
    private readonly mixed: ReadonlyMap<number, Uint32Array>,
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
    const all = inKeyOrderArray(rows);
    const builder = new BankDaysBuilder(all.length);
    builder.add(all);
    return builder.finish(warnings);
  }

  /**
   * The same index, BUILD_SLICE rows added per turn of the event loop (`turn`, awaited between slices):
   * a server building it answers other requests in between.
   */
  static async buildInTurns(
    rows: Iterable<IndexRow>,
    warnings: readonly RateWarning[],
    turn: () => Promise<void>,
  ): Promise<BankDays> {
    const all = inKeyOrderArray(rows);
    const builder = new BankDaysBuilder(all.length);
    for (let from = 0; from < all.length; from += BUILD_SLICE) {
      if (from > 0) await turn();
      builder.add(all, from, Math.min(all.length, from + BUILD_SLICE));
    }
    return builder.finish(warnings);
  }

  /** A builder fed rows in key order, slice by slice (a reader of slices need not keep them all). */
  static builder(): BankDaysBuilder {
    return new BankDaysBuilder(BUILD_SLICE);
  }

  /** The figures held. */
  get size(): number {
    return this.currency.length;
  }

  /** About how many bytes the index holds (its arrays, tables and kept texts). */
  get bytes(): number {
    const arrays = [this.days, this.starts, this.currency, this.digits, this.shape, this.dayVersion];
    let bytes = arrays.reduce((n, a) => n + a.byteLength, 0) + this.versions.bytes;
    for (const figures of this.mixed.values()) bytes += figures.byteLength + 64;
    bytes += this.currencies.length * 24 + this.shapes.length * 48;
    bytes += this.verbatim.size * 64 + [...this.warned.values()].reduce((n, l) => n + l.length * 160, 0);
    return bytes;
  }

  /** The figures of one stored date, of `currencies` only when given, sorted by currency, and their version. */
  day(date: IsoDate, currencies?: readonly string[]): { rows: HistoryRow[]; version: RowsVersion } {
    const rows: HistoryRow[] = [];
    const d = this.dayOf(date);
    if (d < 0) return { rows, version: { rows: 0, maxStoredAt: "", maxFetchId: 0 } };
    const keep = currencies ? new Set(currencies) : undefined;
    const start = this.starts[d]!;
    const kept: number[] = [];
    for (let i = start; i < this.starts[d + 1]!; i++) {
      const code = this.currencies[this.currency[i]!]!;
      if (keep && !keep.has(code)) continue;
      const { decimals, unitMultiplier } = this.shapes[this.shape[i]!]!;
      const rate = this.verbatim.get(i) ?? rateText(this.digits[i]!, decimals);
      rows.push({ effectiveDate: date, currency: code, rate, unitMultiplier });
      kept.push(i - start);
    }
    return { rows, version: this.versionOfDay(d, kept) };
  }

  /** The version of one stored date's figures (of `currencies` only when given). */
  versionOf(date: IsoDate, currencies?: readonly string[]): RowsVersion {
    const d = this.dayOf(date);
    if (d < 0) return { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    const keep = currencies ? new Set(currencies) : undefined;
    const start = this.starts[d]!;
    const kept: number[] = [];
    for (let i = start; i < this.starts[d + 1]!; i++)
      if (!keep || keep.has(this.currencies[this.currency[i]!]!)) kept.push(i - start);
    return this.versionOfDay(d, kept);
  }

  /** The version of some figures of day `d` (by their place in the day). */
  private versionOfDay(d: number, kept: readonly number[]): RowsVersion {
    const version: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
    if (kept.length === 0) return version;
    const uniform = this.dayVersion[d]!;
    if (uniform !== MIXED) return this.versions.add(version, uniform, kept.length);
    const figures = this.mixed.get(d)!;
    for (const k of kept) this.versions.add(version, figures[k]!, 1);
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

/** Rows as an array in key order: as given when they are (the store's read), else sorted. */
function inKeyOrderArray(rows: Iterable<IndexRow>): IndexRow[] {
  const all = Array.isArray(rows) ? (rows as IndexRow[]) : [...rows];
  if (!inKeyOrder(all)) all.sort(byKey);
  return all;
}

/** A typed array of at least `need` entries holding `array`'s first `used`. */
function grown<T extends Uint32Array | Float64Array>(array: T, used: number, need: number): T {
  if (need <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2));
  next.set(array.subarray(0, used));
  return next;
}

/**
 * Builds a BankDays from rows added in key order (by date then currency), in as many slices as the
 * caller likes: a slice's rows can be dropped once added, so a build read from the store a slice at a
 * time never holds every row as objects at once. Rows out of key order are refused.
 */
export class BankDaysBuilder {
  private readonly days: number[] = [];
  private readonly starts: number[] = [];
  private readonly currencies = new Table<string>();
  private readonly shapes = new Table<Shape>();
  private readonly versions = new Table<Version>();
  // Typed from the start: a plain array this long would be a slow dictionary.
  private currency: Uint32Array;
  private digits: Float64Array;
  private shape: Uint32Array;
  private version: Uint32Array;
  private readonly verbatim = new Map<number, string>();
  private n = 0;
  private previous: IndexRow | undefined;
  private maxDigits = 0;
  private readonly whole: RowsVersion = { rows: 0, maxStoredAt: "", maxFetchId: 0 };
  // Neighbours mostly share a shape and a version: the last ones are reused without a lookup.
  private last = { decimals: -1, unit: NaN, shape: 0, storedAt: "", fetchId: NaN, version: 0 };

  constructor(capacity: number) {
    const size = Math.max(1, capacity);
    this.currency = new Uint32Array(size);
    this.digits = new Float64Array(size);
    this.shape = new Uint32Array(size);
    this.version = new Uint32Array(size);
  }

  /** Adds rows[from, to), which follow the rows added before in key order. */
  add(rows: readonly IndexRow[], from = 0, to = rows.length): void {
    const need = this.n + (to - from);
    this.currency = grown(this.currency, this.n, need);
    this.digits = grown(this.digits, this.n, need);
    this.shape = grown(this.shape, this.n, need);
    this.version = grown(this.version, this.n, need);
    const { currency, digits, shape, version, verbatim } = this;
    let last = this.last;
    for (let r = from; r < to; r++) {
      const row = rows[r]!;
      const [date, code, rate, unitMultiplier, storedAt, fetchId] = row;
      const i = this.n++;
      if (this.previous === undefined || date !== this.previous[0]) {
        if (this.previous !== undefined && date < this.previous[0])
          throw new Error(`day index: ${date} after ${this.previous[0]}`);
        this.days.push(dayNumber(date));
        this.starts.push(i);
      } else if (code <= this.previous[1]) throw new Error(`day index: ${date} ${code} after ${this.previous[1]}`);
      this.previous = row;
      currency[i] = this.currencies.of(code, code);
      const split = splitRate(rate);
      if (split < 0) verbatim.set(i, rate);
      const decimals = split < 0 ? 0 : split;
      const figureDigits = split < 0 ? 0 : splitDigits;
      digits[i] = figureDigits;
      if (figureDigits > this.maxDigits) this.maxDigits = figureDigits;
      if (decimals !== last.decimals || unitMultiplier !== last.unit)
        last = {
          ...last,
          decimals,
          unit: unitMultiplier,
          shape: this.shapes.of(`${decimals} ${unitMultiplier}`, { decimals, unitMultiplier }),
        };
      shape[i] = last.shape;
      if (storedAt !== last.storedAt || fetchId !== last.fetchId)
        last = {
          ...last,
          storedAt,
          fetchId,
          version: this.versions.of(`${storedAt} ${fetchId}`, { storedAt, fetchId }),
        };
      version[i] = last.version;
      addVersion(this.whole, storedAt, fetchId);
    }
    this.last = last;
  }

  /** The index of the rows added, with the bank's warned figures. */
  finish(warnings: readonly RateWarning[]): BankDays {
    const n = this.n;
    const starts = [...this.starts, n];
    const warned = new Map<IsoDate, RateWarning[]>();
    for (const w of warnings) {
      let list = warned.get(w.effectiveDate);
      if (!list) warned.set(w.effectiveDate, (list = []));
      list.push(w);
    }
    const digits = this.digits.subarray(0, n);
    return new BankDays(
      Int32Array.from(this.days),
      Uint32Array.from(starts),
      indexArray(this.currency.subarray(0, n), this.currencies.values.length),
      this.currencies.values,
      this.maxDigits <= 0xffffffff ? Uint32Array.from(digits) : digits.slice(),
      indexArray(this.shape.subarray(0, n), this.shapes.values.length),
      this.shapes.values,
      new Versions(this.versions.values),
      ...byDay(this.version.subarray(0, n), starts),
      this.verbatim,
      warned,
      bankFingerprint(this.whole, warnings),
    );
  }
}

/** By date then currency (code units: the store's binary order). */
function byKey(a: IndexRow, b: IndexRow): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function inKeyOrder(rows: readonly IndexRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (byKey(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}

/** A day whose figures differ in version. */
const MIXED = 0xffffffff;

/** Each day's version when uniform (else MIXED), and the figures' versions of the mixed days. */
function byDay(version: Uint32Array, starts: readonly number[]): [Uint32Array, Map<number, Uint32Array>] {
  const days = new Uint32Array(starts.length - 1);
  const mixed = new Map<number, Uint32Array>();
  for (let d = 0; d < days.length; d++) {
    const figures = version.subarray(starts[d], starts[d + 1]);
    if (figures.every((v) => v === figures[0])) days[d] = figures[0] ?? 0;
    else {
      days[d] = MIXED;
      mixed.set(d, figures.slice());
    }
  }
  return [days, mixed];
}

/**
 * The distinct (stored_at, fetch id) pairs of a bank: stored_at as milliseconds when every one is the
 * ISO text Date gives back (as the store writes them: 8 bytes rather than a string each), else as text.
 */
class Versions {
  private readonly fetchIds: Float64Array;
  private readonly millis: Float64Array | undefined;
  private readonly texts: readonly string[] | undefined;

  constructor(values: readonly Version[]) {
    this.fetchIds = Float64Array.from(values, (v) => v.fetchId);
    const millis = Float64Array.from(values, (v) => Date.parse(v.storedAt));
    const exact = values.every(
      (v, i) => Number.isFinite(millis[i]) && new Date(millis[i]!).toISOString() === v.storedAt,
    );
    this.millis = exact ? millis : undefined;
    this.texts = exact ? undefined : values.map((v) => v.storedAt);
  }

  get bytes(): number {
    return this.fetchIds.byteLength + (this.millis?.byteLength ?? 0) + (this.texts?.length ?? 0) * 64;
  }

  /** `version` with `count` more figures of version `v`. */
  add(version: RowsVersion, v: number, count: number): RowsVersion {
    version.rows += count;
    const storedAt = this.millis ? new Date(this.millis[v]!).toISOString() : this.texts![v]!;
    if (storedAt > version.maxStoredAt) version.maxStoredAt = storedAt;
    if (this.fetchIds[v]! > version.maxFetchId) version.maxFetchId = this.fetchIds[v]!;
    return version;
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
