// The MCP tools about the banks themselves: which there are (list_banks), what they quote
// (list_currencies), and when they publish (get_calendar).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

import { answer, englishName, type RatesReader } from "./answer.js";
import { bankId, isoDate, strictInput } from "./schemas.js";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerBankTools(server: McpServer, client: RatesReader): void {
  registerListBanks(server, client);
  registerListCurrencies(server, client);
  registerCalendar(server, client);
}

function registerListBanks(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "list_banks",
    {
      title: "List the central banks",
      description:
        "Every central bank and rate source with published official exchange rates: id, name, country, own currency, how often it publishes (Daily, Monthly, Quarterly...), and the first and latest dates stored.",
      inputSchema: strictInput({}),
      outputSchema: {
        banks: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            countryCode: z.array(z.string()).optional(),
            bankCurrency: z.string().optional(),
            supportedFrequencies: z.array(z.string()).optional(),
            firstEffectiveDate: isoDate.optional(),
            latestEffectiveDate: isoDate.optional(),
            website: z.string().optional(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    () =>
      answer(async () => {
        const banks = (await client.banks()).map((b) => ({
          id: b.id,
          name: englishName(b),
          ...(b.countryCode ? { countryCode: b.countryCode } : {}),
          ...(b.bankCurrency ? { bankCurrency: b.bankCurrency } : {}),
          ...(b.supportedFrequencies ? { supportedFrequencies: b.supportedFrequencies } : {}),
          ...(b.firstEffectiveDate ? { firstEffectiveDate: b.firstEffectiveDate } : {}),
          ...(b.latestEffectiveDate ? { latestEffectiveDate: b.latestEffectiveDate } : {}),
          ...(b.website ? { website: b.website } : {}),
        }));
        const lines = banks.map(
          (b) =>
            `${b.id}: ${b.name}${b.bankCurrency ? `, ${b.bankCurrency}` : ""}` +
            (b.supportedFrequencies && b.supportedFrequencies[0] !== "Daily"
              ? `, ${b.supportedFrequencies.join("/").toLowerCase()}`
              : "") +
            (b.latestEffectiveDate ? `, rates ${b.firstEffectiveDate ?? "?"} to ${b.latestEffectiveDate}` : ""),
        );
        return { structured: { banks }, text: [`${banks.length} banks with published rates:`, ...lines].join("\n") };
      }),
  );
}

function registerListCurrencies(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "list_currencies",
    {
      title: "List the quoted currencies",
      description:
        "Every currency any bank quotes (or one bank's), with its English name and, per bank, the first and latest dates it was quoted.",
      inputSchema: strictInput({ bank: bankId.optional().describe("Only the currencies this bank quotes") }),
      outputSchema: {
        currencies: z.array(
          z.object({
            code: z.string(),
            name: z.string().optional(),
            banks: z.array(z.object({ bankId: z.string(), since: isoDate, latest: isoDate })),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    ({ bank }) =>
      answer(async () => {
        const wanted = bank?.toUpperCase();
        const currencies = (await client.currencies())
          .map((c) => (wanted ? { ...c, banks: c.banks.filter((b) => b.bankId === wanted) } : c))
          .filter((c) => c.banks.length > 0);
        if (wanted && currencies.length === 0) await client.bank(wanted); // an unknown bank says so
        const lines = currencies.map(
          (c) =>
            `${c.code}${c.name ? ` (${c.name})` : ""}: ` +
            c.banks.map((b) => `${b.bankId} ${b.since} to ${b.latest}`).join("; "),
        );
        const head = wanted
          ? currencies.length
            ? `${wanted} quotes ${currencies.length} currencies:`
            : `${wanted} has no rates stored yet.`
          : `${currencies.length} currencies quoted:`;
        return { structured: { currencies }, text: [head, ...lines].join("\n") };
      }),
  );
}

const closing = z.object({ date: isoDate, name: z.string() });

function registerCalendar(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "get_calendar",
    {
      title: "A bank's publication calendar",
      description:
        "The days a bank publishes in a year, the days it is closed (with the holiday's name), its publication time and zone, and what the stored rates show against it.",
      inputSchema: strictInput({
        bank: bankId,
        year: z.number().int().min(1900).max(2200).optional().describe("The year (default: this year)"),
      }),
      outputSchema: {
        bankId: z.string(),
        year: z.number().int(),
        timeZone: z.string(),
        publicationTime: z.string(),
        country: z.string().nullable(),
        publicationDays: z.array(isoDate),
        closings: z.array(closing),
        observed: z.object({ publishedOnClosing: z.array(closing), notPublished: z.array(isoDate) }),
      },
      annotations: READ_ONLY,
    },
    ({ bank, year }) =>
      answer(
        async () => {
          const calendar = await client.calendar(bank, year === undefined ? {} : { year });
          const lines = [
            `${calendar.bankId} in ${calendar.year}: ${calendar.publicationDays.length} publication days at ${calendar.publicationTime} ${calendar.timeZone}, ${calendar.closings.length} closings:`,
            ...calendar.closings.map((c) => `${c.date}: ${c.name}`),
          ];
          if (calendar.observed.notPublished.length)
            lines.push(`Publication days with nothing stored: ${calendar.observed.notPublished.join(", ")}`);
          return { structured: { ...calendar }, text: lines.join("\n") };
        },
        { client, bank },
      ),
  );
}
