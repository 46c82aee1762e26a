// The build replaces src/store/kysely.ts's output with one bundle of the kysely package
// (scripts/bundle-kysely.mjs), so that the CLI and the servers load one module instead of 262.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import * as kysely from "kysely";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../../dist/src/", import.meta.url));
const BUILT = join(DIST, "store/kysely.js");

const builtFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(join(dir, entry.name)) : entry.name.endsWith(".js") ? [join(dir, entry.name)] : [],
  );

describe("kysely as built", () => {
  it("is one module of the installed package's code, importing nothing", () => {
    const text = readFileSync(BUILT, "utf8");
    const { version } = JSON.parse(
      readFileSync(new URL("../../node_modules/kysely/package.json", import.meta.url), "utf8"),
    ) as {
      version: string;
    };
    expect(text.startsWith(`// kysely ${version}, bundled by scripts/bundle-kysely.mjs\n`)).toBe(true);
    expect(text).not.toMatch(/^\s*(import\s|export\s+\*\s+from)/m);
  });

  it("exports every name of the package, and builds the same SQL", async () => {
    const built = (await import(BUILT)) as typeof kysely;
    expect(Object.keys(built).sort()).toEqual(Object.keys(kysely).sort());
    const query = (k: typeof kysely) => {
      const db = new k.Kysely<{ rates: { bank: string; rate: string } }>({
        dialect: {
          createAdapter: () => new k.SqliteAdapter(),
          createDriver: () => new k.DummyDriver(),
          createIntrospector: (d) => new k.SqliteIntrospector(d),
          createQueryCompiler: () => new k.SqliteQueryCompiler(),
        },
      });
      return db
        .selectFrom("rates")
        .select(["rate"])
        .where("bank", "=", "ECB")
        .where(k.sql<boolean>`rate > ${"1"}`)
        .compile();
    };
    const [ours, theirs] = [query(built), query(kysely)];
    expect([ours.sql, ours.parameters]).toEqual([theirs.sql, theirs.parameters]);
    expect(ours.sql).toBe('select "rate" from "rates" where "bank" = ? and rate > ?');
  });

  it("is the only kysely the built code loads", () => {
    const direct = builtFiles(DIST).filter((file) =>
      /from "kysely"|import\("kysely"\)/.test(readFileSync(file, "utf8")),
    );
    expect(direct).toEqual([]);
  });
});
