// loadBanks (src/feed/registry.ts): the descriptors of every bank from the build's list when it names
// exactly the adapter files there are, else from the adapters themselves.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { BANK_LIST_FILE, loadBanks } from "../../src/feed/registry.js";
import type { BankDescriptor } from "../../src/types.js";

const dir = mkdtempSync(join(tmpdir(), "exrates-bank-list-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Czech National Bank's descriptor under another id and name. */
const descriptor = (id: string, name: string): BankDescriptor => ({
  ...cnb.bank,
  id,
  names: [{ ...cnb.bank.names[0]!, name }],
});

/** A self-contained adapter file whose bank is named `name`. */
function writeAdapter(id: string, name: string): void {
  const bank = JSON.stringify(descriptor(id, name));
  writeFileSync(join(dir, `${id}.js`), `export default { bank: ${bank}, fetch: async () => [], parse: () => [] };\n`);
}

describe("loadBanks", () => {
  it("reads the build's list when it names exactly the adapter files, without loading them", async () => {
    writeAdapter("AAA", "Loaded A");
    writeAdapter("BBB", "Loaded B");
    writeFileSync(
      join(dir, BANK_LIST_FILE),
      JSON.stringify([descriptor("AAA", "Listed A"), descriptor("BBB", "Listed B")]),
    );
    const banks = await loadBanks(dir);
    expect(banks.map(({ bank }) => bank.names[0]!.name)).toEqual(["Listed A", "Listed B"]);
    expect(banks.every((entry) => !("parse" in entry))).toBe(true);
  });

  it("loads the adapters when an adapter file is not in the list (added since the build)", async () => {
    writeAdapter("CCC", "Loaded C");
    const banks = await loadBanks(dir);
    expect(banks.map(({ bank }) => bank.names[0]!.name)).toEqual(["Loaded A", "Loaded B", "Loaded C"]);
    expect(banks.every((entry) => "parse" in entry)).toBe(true);
  });

  it("loads the adapters when there is no list, or it cannot be read", async () => {
    writeFileSync(join(dir, BANK_LIST_FILE), "[{ not json");
    expect((await loadBanks(dir)).map(({ bank }) => bank.id)).toEqual(["AAA", "BBB", "CCC"]);
    rmSync(join(dir, BANK_LIST_FILE));
    expect((await loadBanks(dir)).map(({ bank }) => bank.names[0]!.name)).toEqual(["Loaded A", "Loaded B", "Loaded C"]);
  });
});
