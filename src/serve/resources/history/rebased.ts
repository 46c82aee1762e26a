// A date's set re-expressed against another currency (`base=`): read, re-expressed and rendered for
// each request (not kept with the dated answers: re-expressed tables come in as many kinds as
// currencies), its ETag naming the rows behind it and the base.
import type { IncomingMessage, ServerResponse } from "node:http";

import { rebasedHeader } from "../../../publish/cross.js";
import { historyEtag, type HistoryStore } from "../../../store/history.js";
import type { IsoDate } from "../../../types.js";
import { disposition, sendDynamic } from "../../http/dynamic.js";
import type { Format } from "../../http/negotiate.js";
import { notQuotedHeader } from "../currency-filter.js";
import { readFilter, rebasedOne, sendNotQuoted } from "../cross-rates.js";
import { renderWhole } from "./render.js";
import type { BankFacts } from "./request.js";

export interface RebasedDate {
  id: string;
  /** The date asked for, and the effective date of the set in force on it. */
  asked: IsoDate;
  date: IsoDate;
  format: Format;
  currencies: string[] | undefined;
  base: string;
  facts: BankFacts;
  location: string;
}

export async function sendRebasedDate(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  reader: HistoryStore,
  r: RebasedDate,
): Promise<void> {
  const { id, date, format, currencies, base, facts } = r;
  const { rows, version } = await reader.ratesWithVersion(id, date, readFilter(currencies, base));
  const day = rebasedOne(facts.header, { date, rows }, base, currencies);
  if (!day) return sendNotQuoted(reader, res, head, id, [base], r.asked, date);
  const meta = { ...facts.names, from: date, to: date, storedAt: version.maxStoredAt };
  const key = [id, date, format, currencies?.join(",") ?? "*", facts.factsKey, "base", base];
  return sendDynamic(req, res, head, {
    format,
    etag: historyEtag("date", ...key, version.rows, version.maxStoredAt, version.maxFetchId),
    lastModified: version.maxStoredAt,
    headers: {
      ...(currencies ? notQuotedHeader(currencies, new Set(day.rows.map((x) => x.currency))) : {}),
      ...disposition(format, `${id}-${date}`),
      "content-location": r.location,
    },
    body: () => {
      const bytes = renderWhole(format, rebasedHeader(facts.header, base), [day], meta);
      return format === "xlsx" ? { binary: [bytes] } : { text: [bytes.toString("utf8")] };
    },
  });
}
