// Structured logs through pino, on stderr (stdout is for command output such as `parse`):
// pretty on a terminal, JSON lines otherwise. Secrets are redacted wherever they might appear.
import pino, { type Logger } from "pino";

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

export function createLogger(level = process.env.LOG_LEVEL || "info", pretty = process.stderr.isTTY === true): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, base: undefined };
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
