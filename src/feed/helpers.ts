// Small helpers shared by many adapters.
import { setTimeout as sleep } from "node:timers/promises";

import { FeedError } from "../errors.js";
import { registerSecret } from "../secrets.js";
import type { BankAdapter, FetchContext, IsoDate } from "../types.js";
import { addDays, todayIn } from "./dates.js";

/** The credential an adapter declares, from the environment, or a FeedError saying which variable to set. */
export function credentialFrom(adapter: Pick<BankAdapter, "bank">, ctx: FetchContext): string {
  const need = adapter.bank.credential;
  if (!need) throw new Error(`${adapter.bank.id} declares no credential`);
  const value = ctx.env[need.env];
  if (!value) throw new FeedError(adapter.bank.id, `needs ${need.env} (${need.description})`);
  registerSecret(value); // masked by value in logs, errors and the database, wherever the env came from
  return value;
}

/** The window a "latest" fetch asks for: the last `days` days up to today in the bank's zone. */
export function recentDays(timeZone: string, days: number, now: Date = new Date()): { from: IsoDate; to: IsoDate } {
  const to = todayIn(timeZone, now);
  return { from: addDays(to, -days), to };
}

/** The project's one sleep: a pause that an AbortSignal cuts short (rejecting with an AbortError). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, signal ? { signal } : undefined);
}
