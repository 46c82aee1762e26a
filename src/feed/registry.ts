// Finds the adapters: every adapters/<ID>.ts (or .js once built) is a bank. Adding a bank is adding
// one file there; nothing else lists the banks.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

import { UserError } from "../errors.js";
import type { BankAdapter } from "../types.js";
import { descriptorProblems } from "./adapter.js";

const ADAPTER_FILE = /^([A-Z][A-Z0-9]{1,9})\.(ts|js)$/;

/** The adapters folder: ../../adapters from src/feed, in source and in dist alike. */
export const ADAPTERS_DIR = fileURLToPath(new URL("../../adapters/", import.meta.url));

let cache: Promise<Map<string, BankAdapter>> | undefined;

function adapterFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => ADAPTER_FILE.test(f) && !f.endsWith(".d.ts"))
    .sort();
}

/** Imports one adapter file and checks it: the default export, its id, its descriptor. */
async function loadOne(dir: string, file: string): Promise<BankAdapter> {
  const id = ADAPTER_FILE.exec(file)![1]!;
  const adapter = ((await import(pathToFileURL(join(dir, file)).href)) as { default?: BankAdapter }).default;
  if (!adapter?.bank || typeof adapter.parse !== "function" || typeof adapter.fetch !== "function") {
    throw new Error(`adapters/${file} does not export default defineAdapter({ bank, fetch, parse })`);
  }
  if (adapter.bank.id !== id) throw new Error(`adapters/${file} declares bank id ${adapter.bank.id}`);
  const problems = descriptorProblems(adapter.bank);
  if (problems.length) throw new Error(`adapters/${file}: ${problems.join("; ")}`);
  return adapter;
}

async function load(dir: string): Promise<Map<string, BankAdapter>> {
  const files = adapterFiles(dir);
  const loaded = await Promise.all(files.map((file) => loadOne(dir, file)));
  return new Map(loaded.map((a) => [a.bank.id, a]));
}

/** Every bank id (an adapter file's name), sorted, without loading the adapters. */
export function knownBankIds(dir: string = ADAPTERS_DIR): string[] {
  return adapterFiles(dir).map((f) => ADAPTER_FILE.exec(f)![1]!);
}

/** Every adapter, by bank id, sorted by id. Loaded once. */
export function loadAdapters(dir: string = ADAPTERS_DIR): Promise<Map<string, BankAdapter>> {
  if (dir !== ADAPTERS_DIR) return load(dir);
  return (cache ??= load(dir));
}

/**
 * The adapter of a bank id given by a user (case-insensitive), or a UserError naming the known ids.
 * Imports only that bank's file: a one-bank command should not pay for loading ninety parsers.
 */
export async function adapterFor(id: string): Promise<BankAdapter> {
  if (cache) {
    const adapter = (await cache).get(id.toUpperCase());
    if (adapter) return adapter;
  }
  const files = adapterFiles(ADAPTERS_DIR);
  const file = files.find((f) => ADAPTER_FILE.exec(f)![1] === id.toUpperCase());
  if (!file)
    throw new UserError(`unknown bank "${id}" (known: ${files.map((f) => ADAPTER_FILE.exec(f)![1]).join(", ")})`);
  return loadOne(ADAPTERS_DIR, file);
}

/** The adapters named by a command's arguments, or all of them. */
export async function adaptersFor(ids: string[], all: boolean): Promise<BankAdapter[]> {
  if (all) return [...(await loadAdapters()).values()];
  if (ids.length === 0) throw new UserError("name at least one bank id, or --all");
  return Promise.all(ids.map(adapterFor));
}
