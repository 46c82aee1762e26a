// A date's sources for ?provenance=true (src/serve/resources/history/as-of.ts): one per answer, oldest
// fetch first, each naming its currencies only when there are several, and a secret in a stored URL
// masked before it is served.
import { afterEach, describe, expect, it } from "vitest";

import { clearSecrets, MASK, registerSecret } from "../../src/secrets.js";
import { sourcesOf } from "../../src/serve/resources/history/as-of.js";
import type { KnownRow, Provenance } from "../../src/store/as-of.js";

const row = (currency: string, fetchId: number): KnownRow => ({
  effectiveDate: "2026-03-02",
  currency,
  rate: "1.5",
  unitMultiplier: 0,
  storedAt: "2026-03-02T13:31:00.000Z",
  fetchId,
});
const source = (id: number, url: string): Provenance => ({
  fetchId: id,
  kind: "fetch",
  url,
  at: `2026-03-02T13:3${id}:00.000Z`,
  sha256: String(id).repeat(64),
});

afterEach(() => clearSecrets());

describe("sourcesOf", () => {
  it("gives one source per answer, oldest fetch first, currencies only when there are several", () => {
    const provenance = new Map([
      [7, source(7, "https://bank.example/a")],
      [3, source(3, "https://bank.example/b")],
    ]);
    expect(sourcesOf([row("EUR", 7), row("HUF", 3), row("USD", 7)], provenance)).toEqual([
      {
        kind: "fetch",
        url: "https://bank.example/b",
        fetchedAt: "2026-03-02T13:33:00.000Z",
        sha256: "3".repeat(64),
        currencies: ["HUF"],
      },
      {
        kind: "fetch",
        url: "https://bank.example/a",
        fetchedAt: "2026-03-02T13:37:00.000Z",
        sha256: "7".repeat(64),
        currencies: ["EUR", "USD"],
      },
    ]);
    expect(sourcesOf([row("EUR", 7)], provenance)).toEqual([
      { kind: "fetch", url: "https://bank.example/a", fetchedAt: "2026-03-02T13:37:00.000Z", sha256: "7".repeat(64) },
    ]);
  });

  it("masks a secret the stored URL still holds", () => {
    registerSecret("k3y-of-the-bank-42");
    const [s] = sourcesOf([row("EUR", 1)], new Map([[1, source(1, "https://bank.example/x?auth=k3y-of-the-bank-42")]]));
    expect(s).toMatchObject({ kind: "fetch", url: `https://bank.example/x?auth=${MASK}` });
  });

  it("shows an import as imported: file, importer, when; a declared URL never as fetched", () => {
    const imported = (id: number, url: string): Provenance => ({
      ...source(id, url),
      kind: "import",
      file: "edited.json",
      importedBy: "alice",
    });
    const provenance = new Map([
      [1, imported(1, "")],
      [2, imported(2, "https://api.cnb.cz/cnbapi/exrates/daily")],
      [3, { ...source(3, "https://bank.example/old"), kind: "import" as const, file: null, importedBy: null }],
    ]);
    const [none, declared, legacy] = [1, 2, 3].map((id) => sourcesOf([row("EUR", id)], provenance)[0]);
    expect(none).toEqual({
      kind: "import",
      file: "edited.json",
      importedBy: "alice",
      importedAt: "2026-03-02T13:31:00.000Z",
      sha256: "1".repeat(64),
    });
    expect(declared).toEqual({
      kind: "import",
      file: "edited.json",
      importedBy: "alice",
      importedAt: "2026-03-02T13:32:00.000Z",
      sha256: "2".repeat(64),
      declaredUrl: "https://api.cnb.cz/cnbapi/exrates/daily",
    });
    expect(declared).not.toHaveProperty("url");
    expect(declared).not.toHaveProperty("fetchedAt");
    // Imported before file names were kept: the URL it was recorded under, as declared.
    expect(legacy).toMatchObject({
      kind: "import",
      file: null,
      importedBy: null,
      declaredUrl: "https://bank.example/old",
    });
  });
});
