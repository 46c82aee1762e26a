// Structured logs through pino, on stderr (stdout is for command output such as `parse`):
// pretty on a terminal, JSON lines otherwise. Secrets are redacted wherever they might appear: fields
// named like credentials are censored, and every line is passed through redactSecrets (src/secrets.ts)
// before it is written, so a configured secret is masked whatever field or message holds it.
// Attacker-supplied strings are cut short (`clip`), and a refusal repeated by the same client or address
// is logged once, then summarised once a minute with its count (`RepeatSummary`).
import { createHash } from "node:crypto";

import pino, { type DestinationStream, type Logger } from "pino";

import { redactSecrets } from "./secrets.js";

export type { Logger };

export const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "client_secret",
  "*.client_secret",
  "clientSecret",
  "*.clientSecret",
  "access_token",
  "*.access_token",
  "token",
  "*.token",
  "password",
  "*.password",
  "privateKey",
  "*.privateKey",
];

/**
 * The level when LOG_LEVEL is unset. The daemons (`start`, `serve`) log at info; a one-off command logs
 * at warn, so that its own output is not mixed with lines about its progress (src/cli/main.ts sets it).
 */
let defaultLevel = "info";

export function setDefaultLogLevel(level: string): void {
  defaultLevel = level;
}

/** LOG_LEVEL, else the process's default level. */
export const logLevel = (): string => process.env.LOG_LEVEL || defaultLevel;

/** pino's options shared by every logger of the process (tests build theirs with a destination). */
export function loggerOptions(level = logLevel()): pino.LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    base: undefined,
    hooks: { streamWrite: redactSecrets },
  };
}

export function createLogger(
  level = logLevel(),
  pretty = process.stderr.isTTY === true,
  destination?: DestinationStream,
): Logger {
  const options = loggerOptions(level);
  if (destination) return pino(options, destination);
  if (pretty) {
    return pino({
      ...options,
      transport: { target: "pino-pretty", options: { destination: 2, colorize: true, translateTime: "SYS:HH:MM:ss" } },
    });
  }
  return pino(options, pino.destination({ fd: 2, sync: true }));
}

let shared: Logger | undefined;

/** The process's logger. */
export function logger(): Logger {
  return (shared ??= createLogger());
}

/** Longest attacker-supplied string written to a log line. */
export const CLIP_LENGTH = 64;

/** A string from outside, bounded for a log line: cut at `max` characters, with its length said. */
export function clip(text: string, max = CLIP_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/**
 * A string from outside that may be a misplaced secret (a client id that names no client): a short
 * prefix, the length and a hash prefix, enough to tell two apart and to recognise one's own typo.
 */
export function hint(text: string): string {
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 8);
  return `${text.slice(0, 6)}${text.length > 6 ? "…" : ""} (${text.length} chars, sha256 ${hash})`;
}

type Level = "info" | "warn" | "error";

interface Repeat {
  level: Level;
  fields: Record<string, unknown>;
  msg: string;
  /** Occurrences since the last line written. */
  count: number;
}

export interface RepeatSummaryOptions {
  /** One line per key per interval at most (ms). */
  intervalMs?: number;
  /** Keys followed at once; beyond, occurrences are counted together. */
  capacity?: number;
  /** false: no timer (tests call flush()). */
  timer?: boolean;
}

/**
 * Repeated events logged as a summary: the first occurrence of a key is written at once; the next ones
 * are counted, and each interval one line per key says how many there were. A key quiet for a whole
 * interval is forgotten. Memory is bounded: beyond `capacity` keys, occurrences share one counter.
 */
export class RepeatSummary {
  private readonly repeats = new Map<string, Repeat>();
  private overflow = 0;
  private readonly capacity: number;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    options: RepeatSummaryOptions = {},
  ) {
    this.capacity = options.capacity ?? 1000;
    const intervalMs = options.intervalMs ?? 60_000;
    if (options.timer !== false) {
      this.timer = setInterval(() => this.flush(), intervalMs);
      this.timer.unref();
    }
  }

  note(key: string, level: Level, fields: Record<string, unknown>, msg: string): void {
    const repeat = this.repeats.get(key);
    if (repeat) {
      repeat.count++;
      return;
    }
    if (this.repeats.size >= this.capacity) {
      this.overflow++;
      return;
    }
    this.repeats.set(key, { level, fields, msg, count: 0 });
    this.log[level](fields, msg);
  }

  /** Writes one line per key that repeated since the last flush; forgets the quiet ones. */
  flush(): void {
    for (const [key, r] of this.repeats) {
      if (r.count === 0) {
        this.repeats.delete(key);
        continue;
      }
      this.log[r.level]({ ...r.fields, repeated: r.count }, `${r.msg} (repeated ${r.count} times since the last line)`);
      r.count = 0;
    }
    if (this.overflow > 0) {
      this.log.warn(
        { event: "log.summarised", repeated: this.overflow },
        `${this.overflow} more refusals from clients and addresses beyond the ${this.capacity} followed one by one`,
      );
      this.overflow = 0;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.flush();
  }
}
