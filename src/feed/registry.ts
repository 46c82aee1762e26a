// Finds the adapters: every adapters/<ID>.ts (or .js once built) is a bank. Adding a bank is adding
// one file there; nothing else lists the banks.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

import { UserError } from "../errors.js";
import { FREQUENCIES, type BankAdapter, type BankDescriptor, type BankEntry, type Frequency } from "../types.js";
import { descriptorProblems, frequencyOf } from "./adapter.js";
import { frequencySourceOf, notABankKey, otherSourcesOf } from "./sources.js";

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

/** The build's list of every adapter's descriptor, beside the built adapters (scripts/build-tables.mjs). */
export const BANK_LIST_FILE = "banks.json";

let listed: BankEntry[] | null | undefined;

/**
 * Every bank's descriptor, sorted by id, for what needs no adapter code (publishing, listing the banks):
 * the build's list when it names exactly the adapter files there are, else the adapters themselves
 * (run from source, or an adapter added since the build). The list spares a command loading a hundred
 * adapters and their parsers, about a second of a two-core machine.
 */
export async function loadBanks(dir: string = ADAPTERS_DIR): Promise<BankEntry[]> {
  // Adapters already loaded by this process answer as well as the list, and share their objects.
  if (dir === ADAPTERS_DIR && cache) return [...(await cache).values()];
  const list = dir === ADAPTERS_DIR ? listedBanks() : bankList(dir);
  return list ?? [...(await loadAdapters(dir)).values()];
}

/** The build's list of the banks (see loadBanks), read once; undefined without a current one. */
export function listedBanks(): BankEntry[] | undefined {
  listed ??= bankList(ADAPTERS_DIR) ?? null;
  return listed ?? undefined;
}

function bankList(dir: string): BankEntry[] | undefined {
  let banks: BankDescriptor[];
  try {
    banks = JSON.parse(readFileSync(join(dir, BANK_LIST_FILE), "utf8")) as BankDescriptor[];
  } catch {
    return undefined;
  }
  const ids = adapterFiles(dir).map((f) => ADAPTER_FILE.exec(f)![1]!);
  if (JSON.stringify(banks.map((bank) => bank.id)) !== JSON.stringify(ids)) return undefined;
  return banks.map((bank) => ({ bank }));
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
  if (!file) throw new UserError(`unknown bank "${id}" (known: ${bankKeys(files).join(", ")})`);
  return loadOne(ADAPTERS_DIR, file);
}

/** The bank keys a user may type: the adapters' ids but a second table's internal one (NBPB). */
function bankKeys(files: string[]): string[] {
  return files.map((f) => ADAPTER_FILE.exec(f)![1]!).filter((id) => frequencySourceOf(id) === undefined);
}

/** A frequency as typed (`weekly`, `Weekly`); a UserError naming the frequencies otherwise. */
export function frequencyArgument(text: string): Frequency {
  const found = FREQUENCIES.find((f) => f.toLowerCase() === text.toLowerCase());
  if (!found) throw new UserError(`unknown frequency "${text}" (known: ${FREQUENCIES.join(", ").toLowerCase()})`);
  return found;
}

/**
 * The sources of a bank key typed by a user (NBP: its daily and its weekly table), or only the one of
 * `frequency` (a UserError when the bank does not publish at it). A second table's internal id typed as a
 * key (NBPB) is refused, naming the bank and frequency to use.
 */
export async function sourcesForBank(key: string, frequency?: Frequency): Promise<BankAdapter[]> {
  const refused = notABankKey(key);
  if (refused) {
    const s = frequencySourceOf(key)!;
    throw new UserError(`${refused} (here: ${s.bank} --frequency ${s.frequency.toLowerCase()})`);
  }
  const own = await adapterFor(key);
  const all = [own, ...(await Promise.all(otherSourcesOf(own.bank.id).map(adapterFor)))];
  if (frequency === undefined) return all;
  const chosen = all.find((a) => frequencyOf(a.bank) === frequency);
  if (!chosen) {
    const known = all.map((a) => frequencyOf(a.bank).toLowerCase()).join(" and ");
    throw new UserError(`${own.bank.id} publishes ${known} rates, not ${frequency.toLowerCase()}`);
  }
  return [chosen];
}

/** The sources of the banks a command names (each bank's every table, or those of `frequency`), or all. */
export async function sourcesFor(ids: string[], all: boolean, frequency?: Frequency): Promise<BankAdapter[]> {
  if (all) {
    const every = [...(await loadAdapters()).values()];
    return frequency === undefined ? every : every.filter((a) => frequencyOf(a.bank) === frequency);
  }
  if (ids.length === 0) throw new UserError("name at least one bank id, or --all");
  return (await Promise.all(ids.map((id) => sourcesForBank(id, frequency)))).flat();
}
