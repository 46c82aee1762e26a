// The build's tables (scripts/build-tables.mjs): the built code reads them instead of working their
// answers out, so each must hold exactly those answers. The bank list (src/feed/registry.ts's loadBanks)
// is every adapter's descriptor; the closings table (src/calendar/closings-table.ts) what date-holidays
// gives for every bank's country, and the built calendar must answer as the source does.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import * as calendar from "../../src/calendar/calendar.js";
import type { ClosingsTable } from "../../src/calendar/closings-table.js";
import { loadAdapters, type loadBanks } from "../../src/feed/registry.js";
import type { BankDescriptor } from "../../src/types.js";

const BUILT = fileURLToPath(new URL("../../dist/src/calendar/", import.meta.url));
const table = JSON.parse(readFileSync(`${BUILT}closings-table.json`, "utf8")) as ClosingsTable;

describe("the built bank list", () => {
  it("is every adapter's descriptor, in the adapters' order, and the built registry reads it", async () => {
    const adapters = [...(await loadAdapters()).values()];
    const list = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../dist/adapters/banks.json", import.meta.url)), "utf8"),
    ) as BankDescriptor[];
    expect(list).toEqual(adapters.map((adapter) => adapter.bank));
    expect(list.length).toBeGreaterThan(100);
    const built = (await import(fileURLToPath(new URL("../../dist/src/feed/registry.js", import.meta.url)))) as {
      loadBanks: typeof loadBanks;
    };
    const banks = await built.loadBanks();
    expect(banks.map(({ bank }) => bank)).toEqual(list);
    // Read from the list: descriptors alone, no adapter code loaded.
    expect(banks.some((entry) => "parse" in entry)).toBe(false);
  });
});

describe("the built closings table", () => {
  it("holds the build's year, the year before and the year after", () => {
    const year = new Date().getUTCFullYear();
    expect(table.years).toEqual([year - 1, year, year + 1]);
  });

  it("holds every bank's holiday country, and only those", async () => {
    const countries = new Set<string>();
    for (const adapter of (await loadAdapters()).values()) {
      const country = calendar.holidayCountry(adapter.bank);
      if (country) countries.add(country);
    }
    expect(Object.keys(table.countries).sort()).toEqual([...countries].sort());
    expect(countries.size).toBeGreaterThan(90);
  });

  it("holds, for each country and year, the closings date-holidays gives, names and all", () => {
    for (const [country, years] of Object.entries(table.countries)) {
      expect(Object.keys(years)).toEqual(table.years.map(String));
      for (const year of table.years) {
        expect({ country, year, days: years[String(year)] }).toEqual({
          country,
          year,
          days: Object.fromEntries(calendar.liveHolidaysOf(country, year)),
        });
      }
    }
    // Not an empty table: the Czech Republic closes on New Year's Day and Christmas Day every year.
    for (const year of table.years) {
      const czech = Object.keys(table.countries.CZ?.[String(year)] ?? {});
      expect(czech).toContain(`${year}-01-01`);
      expect(czech).toContain(`${year}-12-25`);
    }
  });

  it("holds, for each bank's own closing rules (the ECB's), the closings date-holidays gives", async () => {
    const owners = [...(await loadAdapters()).values()].filter(
      ({ bank }) => (bank.calendar?.closings ?? []).length > 0,
    );
    expect(owners.map(({ bank }) => bank.id)).toContain("ECB");
    expect(Object.keys(table.rules).sort()).toEqual(
      [...new Set(owners.map(({ bank }) => JSON.stringify(bank.calendar!.closings)))].sort(),
    );
    for (const { bank } of owners) {
      const rules = bank.calendar!.closings!;
      for (const year of table.years) {
        expect(table.rules[JSON.stringify(rules)]![String(year)]).toEqual(
          Object.fromEntries(calendar.liveOwnClosingsOf(rules, year)),
        );
      }
    }
    // TARGET2 closes on Labour Day every year.
    for (const year of table.years)
      expect(Object.keys(table.rules[JSON.stringify(owners[0]!.bank.calendar!.closings)]![String(year)]!)).toContain(
        `${year}-05-01`,
      );
  });

  it("spares a process date-holidays while the table answers, and loads it for a year the table lacks", async () => {
    const ecb = (await loadAdapters()).get("ECB")!.bank;
    // A fresh process: this worker's module graph may hold date-holidays already.
    const script = `
      const { calendarYear } = await import(process.argv[1]);
      const { createRequire } = await import("node:module");
      const cache = createRequire(process.argv[1]).cache;
      const loaded = () => Object.keys(cache).some((file) => file.includes("date-holidays"));
      const bank = JSON.parse(process.argv[2]);
      const inside = calendarYear(bank, Number(process.argv[3])).closings.length;
      const loadedInside = loaded();
      const outside = calendarYear(bank, Number(process.argv[3]) - 5).closings.length;
      console.log(JSON.stringify({ inside, loadedInside, outside, loadedOutside: loaded() }));`;
    const out = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", script, `${BUILT}calendar.js`, JSON.stringify(ecb), String(table.years[1])],
      { encoding: "utf8" },
    );
    const answer = JSON.parse(out) as {
      inside: number;
      loadedInside: boolean;
      outside: number;
      loadedOutside: boolean;
    };
    expect(answer).toMatchObject({ loadedInside: false, loadedOutside: true });
    expect(answer.inside).toBeGreaterThan(0);
    expect(answer.outside).toBeGreaterThan(0);
  });

  it("the built calendar answers as the source does, inside the table's years and outside them", async () => {
    const built = (await import(`${BUILT}calendar.js`)) as typeof calendar;
    const adapters = await loadAdapters();
    const banks = ["CNB", "ECB", "BOJ", "HKMA", "NBP"].map((id) => adapters.get(id)!.bank);
    for (const bank of banks) {
      for (const year of [table.years[0]! - 2, ...table.years]) {
        expect({ bank: bank.id, ...built.calendarYear(bank, year) }).toEqual({
          bank: bank.id,
          ...calendar.calendarYear(bank, year),
        });
      }
    }
  });
});
