// The database's tables as kysely sees them. Migrations in ./migrations create them.
import type { Generated } from "./kysely.js";

export interface FetchesTable {
  id: Generated<number>;
  bank_id: string;
  /** `fetch` (live HTTP), `import` (a saved file given to `exrates import`). */
  kind: string;
  method: string;
  /**
   * Redacted: no credential ever reaches the database. For an import: the URL the importer declared
   * (`--url`), "" when none was (migration 009; older imports keep the URL they were recorded under).
   */
  url: string;
  started_at: string;
  finished_at: string | null;
  http_status: number | null;
  bytes: number | null;
  sha256: string | null;
  error: string | null;
  /** An import's file, its base name only (migration 009); null for a fetch. */
  file_name: string | null;
  /** Who imported the file (`--by`, default the OS user; migration 009); null for a fetch. */
  imported_by: string | null;
}

export interface RatesTable {
  bank_id: string;
  effective_date: string;
  currency: string;
  /** Exact decimal text as published. */
  rate: string;
  unit_multiplier: number;
  derivation: string | null;
  fetch_id: number;
  stored_at: string;
  /** A period source's figure: the last day it is valid for (migration 008); null for a daily one. */
  valid_to: string | null;
}

export interface RateRevisionsTable {
  id: Generated<number>;
  bank_id: string;
  effective_date: string;
  currency: string;
  old_rate: string;
  old_unit_multiplier: number;
  old_derivation: string | null;
  old_fetch_id: number;
  /** When the old figure was stored (migration 007): it was in force from then until revised_at. */
  old_stored_at: string | null;
  new_rate: string;
  new_unit_multiplier: number;
  new_derivation: string | null;
  new_fetch_id: number;
  revised_at: string;
}

/** A client of the embedded SSO (migration 002). The secret is kept only as sha256(salt || secret). */
export interface ClientsTable {
  /** UUID; the `sub` of the client's service account. */
  id: string;
  client_id: string;
  secret_salt: string;
  secret_hash: string;
  /** Granted scopes, space-separated. */
  scope: string;
  enabled: number;
  /** Epoch seconds: tokens issued before this are refused. */
  not_before: number;
  created_at: string;
  updated_at: string;
}

/** The outcome of each bank's latest daemon run (migration 003). */
export interface BankRunsTable {
  bank_id: string;
  /** running | ok | waiting | gave-up | failed | stopped */
  state: string;
  /** schedule | catch-up | manual */
  reason: string;
  started_at: string;
  finished_at: string | null;
  expected_date: string | null;
  message: string | null;
  last_error: string | null;
  last_error_at: string | null;
  pid: number | null;
}

/** A date range a backfill has completed (migration 003). */
export interface BackfillChunksTable {
  bank_id: string;
  from_date: string;
  to_date: string;
  completed_at: string;
  inserted: number;
  revised: number;
  unchanged: number;
  days_without: number;
}

/** A held row, a held figure, or a figure published with a warning (migration 004). */
export interface AnomaliesTable {
  id: Generated<number>;
  bank_id: string;
  effective_date: string | null;
  currency: string | null;
  rate: string | null;
  unit_multiplier: number | null;
  derivation: string | null;
  kind: string;
  reason: string;
  source: string | null;
  /** held | released | warned */
  status: string;
  fingerprint: string;
  first_seen_at: string;
  last_seen_at: string;
  times_seen: Generated<number>;
  fetch_id: number;
  released_at: string | null;
  released_by: string | null;
  /** A period source's figure: the last day it is valid for (migration 008). */
  valid_to: string | null;
}

/** How a bank quotes its stored rates (migration 004). */
export interface BankQuotingTable {
  bank_id: string;
  base_currency: string;
  /** Direct | Indirect */
  quote_type: string;
}

/** One publication of a bank's new or corrected Latest rates (migration 005). */
export interface EventsTable {
  id: Generated<number>;
  /** `rates.published` */
  type: string;
  bank_id: string;
  effective_date: string;
  published_at: string;
  generation: string;
  /** JSON array of currency codes. */
  currencies: string;
  revision: number;
  /** JSON: the event's data, Latest URLs as paths. */
  payload: string;
  created_at: string;
}

/** A receiver of events (migration 005). */
export interface WebhooksTable {
  id: string;
  url: string;
  /** Comma-separated bank ids; null: every bank. */
  banks: string | null;
  secret: string;
  created_at: string;
  paused_at: string | null;
  paused_reason: string | null;
  consecutive_failures: Generated<number>;
}

/** One attempt to deliver an event to a webhook: the queue (`pending`) and the log (migration 005). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  webhook_id: string;
  attempt: number;
  next_attempt_at: string;
  /** pending | delivered | failed | abandoned */
  status: string;
  response_status: number | null;
  error: string | null;
  queued_at: string;
  attempted_at: string | null;
}

/** The embedded SSO's signing keys on a shared database (migration 006): one row, id 1. */
export interface SigningKeysTable {
  id: number;
  revision: number;
  /** JSON `{ keys: [...] }` with the private JWKs. Never logged. */
  content: string;
  updated_at: string;
}

/** Which instance runs the scheduler on a shared database (migration 006): one row, id 1. */
export interface SchedulerLeaderTable {
  id: number;
  instance: string;
  since: string;
}

export interface Database {
  fetches: FetchesTable;
  rates: RatesTable;
  rate_revisions: RateRevisionsTable;
  clients: ClientsTable;
  bank_runs: BankRunsTable;
  backfill_chunks: BackfillChunksTable;
  anomalies: AnomaliesTable;
  bank_quoting: BankQuotingTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  signing_keys: SigningKeysTable;
  scheduler_leader: SchedulerLeaderTable;
}
