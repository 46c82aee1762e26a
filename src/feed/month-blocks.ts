// Walking the month blocks of a whole-history workbook: a banner (read by readMonthBanner) heads each
// block, and the rows under it are days of that month. What can go wrong is told per day, never
// guessed: a day before any banner, under an ambiguous banner (its candidates named), under a banner
// without a year when the sheet gives none, or a day landing on a day already read from another
// banner (a layout error: held, naming both banners, never merged).
import type { IsoDate } from "../types.js";
import { isoFromParts } from "./dates.js";
import { readMonthBanner, type MonthBanner } from "./month-names.js";

/** A day's date, or why it cannot be given one. */
export type BlockDay = { date: IsoDate } | { problem: string };

interface Block {
  label: string;
  banner: MonthBanner;
  year?: number;
}

export class MonthBlocks {
  private block: Block | undefined;
  /** Every date read so far, with the banner whose block it was read under. */
  private readonly read = new Map<IsoDate, string>();
  /** Set once a block collides with another: the rest of the block is held with the same reason. */
  private collision: string | undefined;

  /**
   * @param locales the languages of the bank's month names
   * @param defaultYear the year of banners that write none (a sheet named by its year)
   */
  constructor(
    private readonly locales: readonly string[] = ["en"],
    private readonly defaultYear?: number,
  ) {}

  /**
   * Reads a cell in a banner's place: true when it is a banner (a new block starts, described as
   * `where`), false when it is none (the rows go on in the current block).
   */
  banner(value: unknown, where: string): boolean {
    if (typeof value !== "string" && typeof value !== "number" && !(value instanceof Date)) return false;
    const banner = readMonthBanner(value, this.locales);
    if (banner === undefined) return false;
    const text = value instanceof Date ? value.toISOString().slice(0, 10) : String(value).trim();
    const year = banner.kind === "month" ? (banner.year ?? this.defaultYear) : undefined;
    this.block = { label: `"${text}" (${where})`, banner, ...(year !== undefined && { year }) };
    this.collision = undefined;
    return true;
  }

  /** The current block's month (1-12), when its banner is read. */
  get month(): number | undefined {
    return this.block?.banner.kind === "month" ? this.block.banner.month : undefined;
  }

  /** The current block's year, when known. */
  get year(): number | undefined {
    return this.block?.year;
  }

  /** The current block's banner, as quoted in reasons. */
  get label(): string | undefined {
    return this.block?.label;
  }

  /** Why the current block gives no dates; undefined when it does. */
  private blockProblem(): string | undefined {
    const block = this.block;
    if (!block) return "a day before any month banner";
    if (block.banner.kind === "unreadable") return `the month banner ${block.label} cannot be read`;
    if (block.banner.kind === "ambiguous")
      return `the month banner ${block.label} could be ${block.banner.candidates.join(" or ")}`;
    if (block.year === undefined) return `the month banner ${block.label} gives no year`;
    return this.collision;
  }

  /** Records `date` as read under the current block; a problem when another banner already gave it. */
  private claim(date: IsoDate): BlockDay {
    const first = this.read.get(date);
    const label = this.block!.label;
    if (first !== undefined) {
      this.collision =
        first === label
          ? `${date} is read twice under the month banner ${label}: a layout error (an unread banner?), not merged`
          : `the block under ${label} lands on ${date}, already read under ${first}: a layout error, not merged`;
      return { problem: this.collision };
    }
    this.read.set(date, label);
    return { date };
  }

  /** The date of day `day` (1-31) of the current block, or why it has none. */
  day(day: number | string): BlockDay {
    const problem = this.blockProblem();
    if (problem !== undefined) return { problem: `day ${day}: ${problem}` };
    const date = isoFromParts(this.block!.year!, this.month!, day);
    if (date === undefined) return { problem: `${this.block!.year}-${this.month}-${day} is not a real date` };
    return this.claim(date);
  }

  /**
   * A row that carries its own date, under the current block: its date when it falls in the block's
   * month, else why not (a typing slip: the day meant is unknown). Rows before any banner are taken.
   */
  place(date: IsoDate): BlockDay {
    if (!this.block) return this.claimFree(date);
    const problem = this.blockProblem();
    if (problem !== undefined && this.block.banner.kind !== "month") return { problem: `${date}: ${problem}` };
    if (this.collision !== undefined) return { problem: this.collision };
    const month = this.month!;
    if (Number(date.slice(5, 7)) !== month)
      return {
        problem: `dated ${date} under the month banner ${this.block.label}: a typing slip, the day meant is unknown`,
      };
    return this.claim(date);
  }

  private claimFree(date: IsoDate): BlockDay {
    if (this.read.has(date)) return { problem: `${date} is read twice: a layout error, not merged` };
    this.read.set(date, "(no banner)");
    return { date };
  }
}
