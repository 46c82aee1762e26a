// Configuration from the environment (flags override where natural). Read once, passed down. Every
// EXRATES_* setting is checked here, so that a bad one stops any command at its start with one line
// naming the variable and what it accepts (EXRATES_TRUSTED_PROXIES is read by the server as it starts).
import { hostname } from "node:os";
import { resolve } from "node:path";

import { UserError } from "./errors.js";
import { crossCheckConfig } from "./ingest/sanity.js";
import { parseS3Url } from "./publish/s3-url.js";
import { isDatabaseUrl, maskDatabaseUrl } from "./store/dialect.js";

export interface Config {
  dataDir: string;
  outDir: string;
  /** SQLite file inside dataDir (used when databaseUrl is unset). */
  databasePath: string;
  /** EXRATES_DATABASE_URL: a `postgres://` URL; unset: SQLite at databasePath. Holds a password: never log it. */
  databaseUrl?: string;
  host: string;
  port: number;
  /** Public base URL for links and the token issuer; defaults to http://host:port. */
  publicUrl: string;
  realm: string;
  /** The API scope a client needs to read rates. */
  scope: string;
  /** An external Keycloak realm URL; when set the embedded SSO is off. */
  oidcIssuer?: string;
  feedMirror?: string;
  /** EXRATES_PUBLISH_URL: s3://bucket/prefix, where the tree is published and served from (unset: outDir). */
  publishUrl?: string;
  /**
   * EXRATES_PUBLICATION_SIGNING=off: generations are published unsigned (the operator's explicit choice;
   * `exrates verify` then says UNSIGNED). Unset or `on`: every generation is signed.
   */
  unsignedPublications?: boolean;
  logLevel: string;
  /** Addresses and CIDR ranges of reverse proxies whose X-Forwarded-For is believed (comma-separated). */
  trustedProxies?: string;
  /** Successful token grants per client per minute (burst: twice as many); 0: no limit. */
  tokenGrantsPerMinute: number;
  /** `GET /metrics` is served on this port of metricsHost only (unset: not served at all). */
  metricsPort?: number;
  metricsHost: string;
  /** This instance's id in `/v1/status` (EXRATES_INSTANCE_ID; default host name and process id). */
  instanceId: string;
  /** On a shared database: how often a standby tries to take the scheduler's lead (ms). */
  leaderRetryMs: number;
}

/** RFC 6749 scope: scope-tokens of %x21 / %x23-5B / %x5D-7E, separated by one space. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** The levels LOG_LEVEL may name (pino's). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Why LOG_LEVEL cannot be used, or undefined when it can (unset is info). */
export function checkLogLevel(level: string | undefined): string | undefined {
  if (!level || (LOG_LEVELS as readonly string[]).includes(level)) return undefined;
  return `LOG_LEVEL "${level}" is not a level; use one of ${LOG_LEVELS.join(", ")}`;
}

/** EXRATES_PUBLICATION_SIGNING: `on` (the default) or `off`; anything else stops the command. */
function publicationSigningOff(value: string | undefined): boolean {
  if (!value || value === "on") return false;
  if (value === "off") return true;
  throw new UserError(`EXRATES_PUBLICATION_SIGNING "${value}" is neither "on" (the default) nor "off"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.EXRATES_DATA_DIR || "./data");
  const outDir = resolve(env.EXRATES_OUT_DIR || "./out");
  const host = env.EXRATES_HOST || "127.0.0.1";
  const portText = env.EXRATES_PORT || "8080";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535)
    throw new UserError(`EXRATES_PORT "${portText}" is not a port number`);
  const levelProblem = checkLogLevel(env.LOG_LEVEL);
  if (levelProblem) throw new UserError(levelProblem);
  const realm = env.EXRATES_REALM || "exrates";
  if (!/^[A-Za-z0-9._-]+$/.test(realm))
    throw new UserError(`EXRATES_REALM "${realm}" may hold only letters, digits, '.', '_' and '-'`);
  const publicUrl = (env.EXRATES_PUBLIC_URL || `http://${host.includes(":") ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    "",
  );
  for (const [name, value] of [
    ["EXRATES_PUBLIC_URL", publicUrl],
    ["EXRATES_FEED_MIRROR", env.EXRATES_FEED_MIRROR],
    ["EXRATES_OIDC_ISSUER", env.EXRATES_OIDC_ISSUER],
  ] as const) {
    if (value && !/^https?:\/\/[^/]/.test(value)) throw new UserError(`${name} "${value}" is not an http(s) URL`);
  }
  const publishUrl = env.EXRATES_PUBLISH_URL || undefined;
  if (publishUrl) parseS3Url(publishUrl); // a malformed URL fails here, before anything runs
  const unsignedPublications = publicationSigningOff(env.EXRATES_PUBLICATION_SIGNING);
  const databaseUrl = env.EXRATES_DATABASE_URL || undefined;
  if (databaseUrl && !isDatabaseUrl(databaseUrl))
    throw new UserError(
      `EXRATES_DATABASE_URL "${maskDatabaseUrl(databaseUrl)}" is not a postgres:// or postgresql:// URL (unset it to use SQLite in EXRATES_DATA_DIR)`,
    );
  const grantsText = env.EXRATES_TOKEN_GRANTS_PER_MINUTE || "60";
  if (!/^\d+$/.test(grantsText))
    throw new UserError(`EXRATES_TOKEN_GRANTS_PER_MINUTE "${grantsText}" is not a whole number`);
  const metricsText = env.EXRATES_METRICS_PORT;
  if (metricsText && (!/^\d+$/.test(metricsText) || Number(metricsText) > 65535))
    throw new UserError(`EXRATES_METRICS_PORT "${metricsText}" is not a port number`);
  // The cross-bank check reads its settings at each ingest: a bad one is refused here, at start, not by
  // every fetch of a running daemon.
  crossCheckConfig(env);
  const scope = env.EXRATES_SCOPE || "exchange-rates";
  if (!SCOPE.test(scope))
    throw new UserError(
      `EXRATES_SCOPE "${scope}" is not an OAuth scope: one or more names of printable characters other than '"' and '\\', separated by single spaces`,
    );
  const instanceId = env.EXRATES_INSTANCE_ID || `${hostname()}-${process.pid}`;
  if (!/^[\x21-\x7e]{1,128}$/.test(instanceId))
    throw new UserError(
      `EXRATES_INSTANCE_ID "${instanceId}" must be 1 to 128 printable characters without spaces (default: host name and pid)`,
    );
  const metricsHost = env.EXRATES_METRICS_HOST || "127.0.0.1";
  if (/[\s/]/.test(metricsHost))
    throw new UserError(`EXRATES_METRICS_HOST "${metricsHost}" is not an address or a host name (default 127.0.0.1)`);
  const retryText = env.EXRATES_LEADER_RETRY_SECONDS || "5";
  if (!/^\d+(\.\d+)?$/.test(retryText) || Number(retryText) < 0.1 || Number(retryText) > 3600)
    throw new UserError(`EXRATES_LEADER_RETRY_SECONDS "${retryText}" is not a number of seconds from 0.1 to 3600`);
  return {
    dataDir,
    outDir,
    databasePath: resolve(dataDir, "exrates.db"),
    databaseUrl,
    host,
    port,
    publicUrl,
    realm,
    scope,
    oidcIssuer: env.EXRATES_OIDC_ISSUER?.replace(/\/+$/, "") || undefined,
    feedMirror: env.EXRATES_FEED_MIRROR || undefined,
    publishUrl,
    ...(unsignedPublications ? { unsignedPublications } : {}),
    logLevel: env.LOG_LEVEL || "info",
    trustedProxies: env.EXRATES_TRUSTED_PROXIES || undefined,
    tokenGrantsPerMinute: Number(grantsText),
    metricsPort: metricsText ? Number(metricsText) : undefined,
    metricsHost,
    instanceId,
    leaderRetryMs: Math.round(Number(retryText) * 1000),
  };
}

/** Where the store lives: the PostgreSQL URL when configured, else the SQLite file. */
export function storeLocation(config: Pick<Config, "databasePath" | "databaseUrl">): string {
  return config.databaseUrl ?? config.databasePath;
}
