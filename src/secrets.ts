// Secrets redacted by value. Every configured credential - each EXRATES_*_API_KEY (and any other
// EXRATES_* variable named *_SECRET, *_PASSWORD, *_TOKEN or *_CREDENTIALS), each half of a
// `user:password` pair, the signing keys' private parts, a value registered at run time - is replaced
// by `***` wherever text leaves the process or reaches the database: log lines (src/log.ts), error
// lines (src/errors.ts), URLs (src/feed/redact.ts), the database's text columns (installed on every
// SQLite connection by src/store/database.ts; on PostgreSQL every write's parameters pass through
// redactWriteParameters, src/store/postgres.ts) and the status API. Whatever a parameter, header or message
// calls the value, it is the value that is found. Masking by parameter name (src/feed/redact.ts)
// stays as a second net for values this process was never told about.
import type BetterSqlite3 from "better-sqlite3";

export const MASK = "***";

/**
 * Values shorter than this are not searched for: a short half of a pair (a user name like `user` or
 * `bank`) would mask that word in every log line, and a secret that short protects nothing anyway.
 */
export const MIN_SECRET_LENGTH = 6;

/**
 * Words never searched for, however long: a pair's user half is often one of them (`public`,
 * `anonymous`), and masking it would blank ordinary text everywhere without hiding anything.
 */
const COMMON_WORDS = new Set([
  "access",
  "account",
  "admin",
  "administrator",
  "anonymous",
  "apikey",
  "client",
  "default",
  "exrates",
  "guest",
  "latest",
  "password",
  "private",
  "public",
  "secret",
  "service",
  "undefined",
  "username",
]);

/** Whether a value is worth searching for: long enough to be a secret, and not a common word. */
const searchable = (value: string): boolean =>
  value.length >= MIN_SECRET_LENGTH && !COMMON_WORDS.has(value.toLowerCase());

/** Environment variables whose values are secrets. */
export const SECRET_ENV = /^EXRATES_[A-Z0-9_]*(API_KEY|SECRET|PASSWORD|TOKEN|CREDENTIALS?)$/;

const values = new Set<string>();
let pattern: RegExp | undefined;
let envLoaded = false;

/** The forms a value takes in text: as is, URL- and form-encoded, JSON-escaped (and a pair in base64). */
function spellings(value: string): string[] {
  const uri = encodeURIComponent(value);
  const form = new URLSearchParams([["", value]]).toString().slice(1);
  const forms = [value, uri, uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()), form];
  forms.push(...forms.map((f) => JSON.stringify(f).slice(1, -1)));
  // A user:password pair also travels as Basic credentials.
  if (value.includes(":")) forms.push(Buffer.from(value).toString("base64"), Buffer.from(value).toString("base64url"));
  return forms;
}

/**
 * Registers a secret: the value, and each half of a `user:password` pair. Values shorter than
 * MIN_SECRET_LENGTH, and common words, are ignored (the whole pair is still registered).
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value) return;
  const parts = [value];
  const colon = value.indexOf(":");
  if (colon > 0) parts.push(value.slice(0, colon), value.slice(colon + 1));
  let added = false;
  for (const part of parts) {
    if (!searchable(part)) continue;
    for (const s of spellings(part)) {
      if (!searchable(s) || values.has(s)) continue;
      values.add(s);
      added = true;
    }
  }
  if (added) pattern = undefined;
}

/** Registers every secret of an environment (default: the process's, once). */
export function loadSecretsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): void {
  if (env === process.env) envLoaded = true;
  for (const [name, value] of Object.entries(env)) if (SECRET_ENV.test(name)) registerSecret(value);
}

function currentPattern(): RegExp | undefined {
  if (!envLoaded) loadSecretsFromEnv();
  if (pattern === undefined && values.size > 0) {
    // Longest first, so that a value containing another is masked whole.
    const sorted = [...values].sort((a, b) => b.length - a.length);
    pattern = new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  }
  return pattern;
}

/** The text with every registered secret replaced by `***`. */
export function redactSecrets(text: string): string {
  const p = currentPattern();
  if (p === undefined || text.length < MIN_SECRET_LENGTH) return text;
  p.lastIndex = 0;
  return text.replace(p, MASK);
}

/** Forgets every secret (tests). */
export function clearSecrets(): void {
  values.clear();
  pattern = undefined;
  envLoaded = true;
}

/** Tables whose rows are written in bulk and hold only figures, dates and codes: never scanned. */
const FIGURE_TABLES = new Set(["rates", "rate_revisions", "backfill_chunks"]);

/** Banks with a credential in the environment (`EXRATES_<ID>_API_KEY`). */
function credentialBanks(env: Readonly<Record<string, string | undefined>>): string[] {
  const ids: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    const m = /^EXRATES_([A-Z0-9]+)_API_KEY$/.exec(name);
    if (m && value) ids.push(m[1]!);
  }
  return ids;
}

/**
 * The database's net: on this connection, every text column of every table but the figures' is
 * passed through redactSecrets after each insert or update (TEMP triggers: they live with the
 * connection and call this process's registry). Rows that an earlier version wrote for a bank whose
 * credential is configured now are cleaned once here (through the bank_id indexes: a few ms). A
 * read-only connection is left alone.
 */
export function installSecretRedaction(
  sqlite: BetterSqlite3.Database,
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  if (sqlite.readonly) return;
  sqlite.function("exrates_redact", { deterministic: true }, (text: unknown) =>
    typeof text === "string" ? redactSecrets(text) : text,
  );
  const tables = (sqlite.pragma("main.table_list") as Array<{ name: string; type: string; wr: number }>).filter(
    (t) => t.type === "table" && t.wr === 0 && !/^(sqlite_|kysely_)/.test(t.name) && !FIGURE_TABLES.has(t.name),
  );
  const banks = currentPattern() === undefined ? [] : credentialBanks(env);
  for (const { name: table } of tables) {
    const info = sqlite.pragma(`table_info("${table}")`) as Array<{ name: string; type: string }>;
    const columns = info.filter((c) => /text|char|clob/i.test(c.type) || c.type === "").map((c) => `"${c.name}"`);
    if (columns.length === 0) continue;
    const changed = (row: string) => columns.map((c) => `exrates_redact(${row}${c}) is not ${row}${c}`).join(" or ");
    const set = columns.map((c) => `${c} = exrates_redact(${c})`).join(", ");
    for (const event of ["insert", "update"]) {
      sqlite.exec(
        `create temp trigger if not exists "exrates_redact_${table}_${event}" after ${event} on main."${table}" ` +
          `when ${changed("new.")} begin update main."${table}" set ${set} where rowid = new.rowid; end`,
      );
    }
    if (banks.length > 0 && info.some((c) => c.name === "bank_id")) {
      const ids = banks.map(() => "?").join(", ");
      sqlite.prepare(`update main."${table}" set ${set} where bank_id in (${ids}) and (${changed("")})`).run(...banks);
    }
  }
}

/** The table an insert or update writes, or undefined for any other statement. */
const WRITTEN_TABLE = /^\s*(?:insert\s+into|update)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i;

const redactParameter = (value: unknown): unknown =>
  typeof value === "string"
    ? redactSecrets(value)
    : Array.isArray(value)
      ? value.map((v: unknown) => (typeof v === "string" ? redactSecrets(v) : v))
      : value;

/**
 * PostgreSQL's net, the counterpart of the SQLite triggers above: the text parameters (and text array
 * elements) of every insert or update of a table other than the figures' pass through redactSecrets
 * before the statement is sent. Reads and the figure tables are left as they are.
 */
export function redactWriteParameters(text: string, parameters: readonly unknown[]): readonly unknown[] {
  if (parameters.length === 0 || currentPattern() === undefined) return parameters;
  const table = WRITTEN_TABLE.exec(text)?.[1];
  if (table === undefined || FIGURE_TABLES.has(table.toLowerCase())) return parameters;
  return parameters.map(redactParameter);
}
