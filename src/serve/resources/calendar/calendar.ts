// `GET /v1/Banks/{bankId}/Calendar?year=2026`: a bank's publication calendar for a year (the days it
// publishes, the working days it is closed with their names, and what was observed against it: dates
// published on a closing day, publication days with nothing stored), as JSON, CSV or iCalendar
// (`text/calendar`, one all-day event per closing, for a treasury team's calendar to subscribe to). A
// period source's days follow its cadence (src/calendar/cadence.ts, as the scheduler), and its iCalendar
// lists its publication days too.
import type { IncomingMessage, ServerResponse } from "node:http";

import {
  calendarYear,
  observedExceptions,
  type CalendarYear,
  type ObservedExceptions,
} from "../../../calendar/calendar.js";
import { todayIn } from "../../../feed/dates.js";
import { expectedNewestDate } from "../../../schedule/time.js";
import { frequencyOf } from "../../../feed/adapter.js";
import { otherSourcesOf } from "../../../feed/sources.js";
import type { BankDescriptor, Cadence, Frequency } from "../../../types.js";
import type { Handler } from "../../context.js";
import { negotiate } from "../../http/negotiate.js";
import { BadRequest, formatValues, parameters } from "../../http/query.js";
import { sendJson, sendProblem } from "../../http/respond.js";
import { sendUnknownBank } from "../bank-problems.js";
import { quoted } from "../../../quote.js";

const ICS = "text/calendar; charset=utf-8";

export interface CalendarDocument extends CalendarYear {
  bankId: string;
  timeZone: string;
  publicationTime: string;
  /** A period source's cadence (the scheduler's rule its publicationDays follow); absent for a daily bank. */
  cadence?: Cadence;
  observed: ObservedExceptions;
  /** The frequency the days above are for: Daily, or a period source's. */
  frequency: Frequency;
  /**
   * A bank's other cadences (NBP's weekly Table B, published on Wednesdays): each frequency's own days,
   * closings, time and what was observed. Absent for a bank with one frequency.
   */
  otherFrequencies?: FrequencyCalendar[];
}

/** One more cadence of a bank publishing at two frequencies. */
export interface FrequencyCalendar extends CalendarYear {
  frequency: Frequency;
  publicationTime: string;
  cadence?: Cadence;
  observed: ObservedExceptions;
}

export const calendar: Handler = (ctx, req, res, head, route, query) =>
  void answer(ctx, req, res, head, route.id!, route.suffix, query).catch(() => res.destroy());

async function answer(
  ctx: Parameters<Handler>[0],
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  id: string,
  suffix: string | undefined,
  query: string,
): Promise<void> {
  let year: number;
  try {
    year = yearOf(parameters(query).get("year"));
  } catch (error) {
    if (error instanceof BadRequest) return sendProblem(res, 400, { detail: error.message, head });
    throw error;
  }
  const bank = await ctx.descriptor(id.toUpperCase());
  if (!bank) return sendUnknownBank(res, head, id);
  const formats = formatValues(query);
  const wantsIcs =
    suffix === "ics" ||
    formats.includes("ics") ||
    (!suffix && formats.length === 0 && /text\/calendar/i.test(req.headers.accept ?? ""));
  const negotiation = wantsIcs ? undefined : negotiate(suffix, formats, req.headers.accept, ["json", "csv"]);
  if (negotiation && !negotiation.ok) {
    const { status, detail } = negotiation;
    const supported = [...negotiation.supported, "text/calendar"];
    return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
  }
  const doc = await calendarDocument(ctx, bank, year);
  const headers = { "cache-control": "no-store", vary: "Accept" };
  if (!negotiation) return sendText(res, ICS, toICalendar(doc), headers, head);
  if (negotiation.format === "csv") return sendText(res, "text/csv; charset=utf-8", toCsv(doc), headers, head);
  sendJson(res, 200, doc, headers, head);
}

function yearOf(text: string | undefined): number {
  if (text === undefined) return new Date().getUTCFullYear();
  if (!/^\d{4}$/.test(text) || Number(text) < 1900 || Number(text) > 2100)
    throw new BadRequest(`year: ${quoted(text)} is not a year between 1900 and 2100`);
  return Number(text);
}

async function calendarDocument(
  ctx: Parameters<Handler>[0],
  bank: BankDescriptor,
  year: number,
): Promise<CalendarDocument> {
  const own = await cadenceOf(ctx, bank, year);
  const others: FrequencyCalendar[] = [];
  for (const source of otherSourcesOf(bank.id)) {
    const other = await ctx.descriptor(source);
    if (other) others.push(await cadenceOf(ctx, other, year));
  }
  const { frequency, publicationTime, cadence, observed, ...days } = own;
  return {
    bankId: bank.id,
    timeZone: bank.timeZone,
    publicationTime,
    ...(cadence ? { cadence } : {}),
    ...days,
    observed,
    frequency,
    ...(others.length ? { otherFrequencies: others } : {}),
  };
}

/** One source's cadence over a year: its days, closings and what was observed against them. */
async function cadenceOf(ctx: Parameters<Handler>[0], bank: BankDescriptor, year: number): Promise<FrequencyCalendar> {
  const history = ctx.history();
  const stored = history ? await history.dates(bank.id) : [];
  const now = new Date();
  const upTo = bank.historicalOnly ? todayIn(bank.timeZone, now) : expectedNewestDate(bank, now);
  return {
    frequency: frequencyOf(bank),
    publicationTime: bank.dailyUpdateTime,
    ...(bank.cadence ? { cadence: bank.cadence } : {}),
    ...calendarYear(bank, year),
    observed: observedExceptions(bank, stored, year, upTo),
  };
}

function sendText(
  res: ServerResponse,
  type: string,
  body: string,
  headers: Record<string, string>,
  head: boolean,
): void {
  const bytes = Buffer.from(body, "utf8");
  res.writeHead(200, { "content-type": type, "content-length": String(bytes.length), ...headers });
  res.end(head ? undefined : bytes);
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One row per day of the year the calendar says something about: published, closed, or observed. */
export function toCsv(doc: CalendarDocument): string {
  const rows = new Map<string, [string, string]>();
  for (const d of doc.publicationDays) rows.set(d, ["publication", ""]);
  for (const c of doc.closings) rows.set(c.date, ["closed", c.name]);
  for (const c of doc.observed.publishedOnClosing) rows.set(c.date, ["published on closing", c.name]);
  for (const d of doc.observed.notPublished) rows.set(d, ["not published", ""]);
  const lines = ["bank,date,day,name"];
  for (const date of [...rows.keys()].sort()) {
    const [day, name] = rows.get(date)!;
    lines.push([doc.bankId, date, day, csvField(name)].join(","));
  }
  // Another cadence's days (NBP's weekly table) follow, named by their frequency.
  for (const other of doc.otherFrequencies ?? []) {
    const f = other.frequency.toLowerCase();
    const more = new Map<string, [string, string]>();
    for (const d of other.publicationDays) more.set(d, [`${f} publication`, ""]);
    for (const c of other.closings) more.set(c.date, [`${f} closed`, c.name]);
    for (const d of other.observed.notPublished) more.set(d, [`${f} not published`, ""]);
    for (const date of [...more.keys()].sort()) {
      const [day, name] = more.get(date)!;
      lines.push([doc.bankId, date, day, csvField(name)].join(","));
    }
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** iCalendar text (RFC 5545): escaped TEXT values, lines folded at 75 octets. */
const icsText = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");

function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  for (const ch of line) {
    if (Buffer.byteLength(current + ch, "utf8") > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
    }
    current += ch;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** The closings (and days published although closed) as all-day events. */
export function toICalendar(doc: CalendarDocument, stamp = new Date()): string {
  const dtstamp = stamp
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const compact = (date: string) => date.replace(/-/g, "");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//exrates//publication calendar//EN",
    "CALSCALE:GREGORIAN",
    `X-WR-CALNAME:${icsText(`${doc.bankId}: ${doc.cadence ? "publication days and closings" : "no publication"}`)}`,
  ];
  const event = (date: string, summary: string, kind: string) => {
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    lines.push(
      "BEGIN:VEVENT",
      `UID:${doc.bankId}-${compact(date)}-${kind}@exrates`,
      `DTSTAMP:${dtstamp}`,
      `DTSTART;VALUE=DATE:${compact(date)}`,
      `DTEND;VALUE=DATE:${compact(next)}`,
      `SUMMARY:${icsText(summary)}`,
      "TRANSP:TRANSPARENT",
      "END:VEVENT",
    );
  };
  // A period source publishes a dozen days a year (not every working day): each is an event too.
  if (doc.cadence) for (const d of doc.publicationDays) event(d, `${doc.bankId} publishes`, "publication");
  for (const other of doc.otherFrequencies ?? [])
    for (const d of other.publicationDays)
      event(d, `${doc.bankId} publishes its ${other.frequency.toLowerCase()} rates`, other.frequency.toLowerCase());
  for (const c of doc.closings) event(c.date, `${doc.bankId} closed: ${c.name}`, "closed");
  for (const c of doc.observed.publishedOnClosing)
    event(c.date, `${doc.bankId} published although closed (${c.name})`, "observed");
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
