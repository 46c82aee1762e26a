// `GET /v1/currencies`: every currency any bank quotes, its English name (ICU) and which banks quote it
// since when, from the store; the body is made once per change of the store's list.
import type { IncomingMessage, ServerResponse } from "node:http";

import { marketCodeFacts } from "../../../feed/market-codes.js";
import { frequencySourceOf, publicIdOf } from "../../../feed/sources.js";
import type { HistoryStore } from "../../../store/history.js";
import type { Handler } from "../../context.js";
import { sendJsonDocument } from "../../http/dynamic.js";
import { negotiate } from "../../http/negotiate.js";
import { formatValues, parameters } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { answerBadRequest, currentStore, sendNoStore } from "../history/request.js";

export const currencies: Handler = async (ctx, req, res, head, route, query) => {
  try {
    const negotiation = negotiate(route.suffix, formatValues(query), req.headers.accept, ["json"]);
    if (!negotiation.ok) {
      const { status, detail, supported } = negotiation;
      return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    }
    // No parameter is read, but one given twice is refused as everywhere.
    parameters(query);
    let reader = currentStore(ctx);
    if (reader instanceof Promise) reader = await reader;
    if (!reader) return sendNoStore(res, head);
    return await sendCurrencies(reader, req, res, head);
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};

let displayNames: Intl.DisplayNames | undefined;

/** A bank quoting the currency; a bank's second table (NBP's weekly, source NBPB) as its bank, with its frequency. */
function bankEntry(b: { bankId: string; since: string; latest: string }) {
  const second = frequencySourceOf(b.bankId);
  return {
    bankId: publicIdOf(b.bankId),
    ...(second ? { frequency: second.frequency } : {}),
    since: b.since,
    latest: b.latest,
  };
}
const currencyBodies = new WeakMap<object, Buffer>();

async function sendCurrencies(reader: HistoryStore, req: IncomingMessage, res: ServerResponse, head: boolean) {
  const { list, maxStoredAt } = await reader.currencies();
  let body = currencyBodies.get(list);
  if (!body) {
    displayNames ??= new Intl.DisplayNames(["en"], { type: "currency", fallback: "none" });
    const currencies = list.map((c) => ({
      code: c.currency,
      ...(displayNames!.of(c.currency) ? { name: displayNames!.of(c.currency) } : {}),
      ...marketCodeFacts(c.currency),
      banks: c.banks.map(bankEntry),
    }));
    body = Buffer.from(`${JSON.stringify({ currencies }, null, 2)}\n`, "utf8");
    currencyBodies.set(list, body);
  }
  return sendJsonDocument(req, res, head, body, maxStoredAt);
}
