// `GET /v1/Pairs/{BASE}/{QUOTE}/Latest | /{date} | ?from&to[&group=]`: one pair as every bank (or the
// banks of `banks=`) prices it, with the consensus (src/pairs/). The answer is resolved from the store
// (as known at `asOf=` when asked) and kept per store generation, so the same question asked again
// costs a lookup; its ETag names every row read.
import type { IncomingMessage, ServerResponse } from "node:http";

import { isIsoDate } from "../../../feed/dates.js";
import { readGroup, type Group } from "../../../pairs/average.js";
import {
  pairSettings,
  renderPairResult,
  resolvePair,
  type PairQuery,
  type PairResult,
} from "../../../pairs/resolve.js";
import { frequencyOfBank } from "../frequency.js";
import { historyEtag, type HistoryStore } from "../../../store/history.js";
import type { Handler, ServeContext } from "../../context.js";
import { disposition, KeptBody, sendKept } from "../../http/dynamic.js";
import { FORMATS, negotiate, type Format } from "../../http/negotiate.js";
import { BadRequest, formatValues, parameters } from "../../http/query.js";
import { sendProblem } from "../../http/respond.js";
import { BANK_ID } from "../../http/router.js";
import { asOfParameter } from "../history/as-of.js";
import { answerBadRequest, currentStore, rangeParameters, sendNoStore, todayAnywhere } from "../history/request.js";

const CODE = /^[A-Z]{3}$/;

/** What the path names: the pair, and Latest, a date, or (no third segment) a range. */
interface PairPath {
  base: string;
  quote: string;
  at: "latest" | "date" | "range";
  date?: string;
  suffix?: string;
}

/** The path after /v1/Pairs/; undefined when it names no pair resource (404). BadRequest for a bad code or date. */
export function readPairPath(rest: readonly string[]): PairPath | undefined {
  if (rest.length < 2 || rest.length > 3) return undefined;
  const last = rest.at(-1)!;
  const dot = last.indexOf(".");
  const suffix = dot < 0 ? undefined : last.slice(dot + 1);
  const parts = [...rest.slice(0, -1), dot < 0 ? last : last.slice(0, dot)];
  const [base, quote] = [parts[0]!.toUpperCase(), parts[1]!.toUpperCase()];
  for (const code of [base, quote])
    if (!CODE.test(code)) throw new BadRequest(`"${code}" is not a currency code (three letters, such as USD)`);
  if (base === quote) throw new BadRequest(`A pair needs two currencies: ${base}/${quote} is one`);
  if (parts.length === 2) return { base, quote, at: "range", suffix };
  const third = parts[2]!;
  if (third.toLowerCase() === "latest") return { base, quote, at: "latest", suffix };
  if (!/^\d/.test(third)) return undefined;
  if (!isIsoDate(third)) throw new BadRequest(`"${third}" is not a date (YYYY-MM-DD)`);
  return { base, quote, at: "date", date: third, suffix };
}

/** `banks=ECB,CNB`: upper case, each a well-formed id; undefined without it. */
function banksParameter(params: Map<string, string>): string[] | undefined {
  const raw = params.get("banks");
  if (raw === undefined) return undefined;
  const ids = [...new Set(raw.split(",").map((s) => s.trim().toUpperCase()))].filter(Boolean).sort();
  const bad = ids.filter((id) => !BANK_ID.test(id));
  if (bad.length || ids.length === 0) throw new BadRequest(`banks: "${raw}" is not a comma-separated list of bank ids`);
  return ids;
}

/** The request as one query value (src/pairs/read.ts), with its format. */
function readQuery(ctx: ServeContext, path: PairPath, query: string): PairQuery & { group?: Group } {
  const params = parameters(query);
  const asOf = asOfParameter(params, ctx.now());
  const banks = banksParameter(params);
  const groupText = params.get("group");
  const common = { base: path.base, quote: path.quote, ...(banks ? { banks } : {}), ...(asOf ? { asOf } : {}) };
  if (path.at !== "range") {
    for (const name of ["from", "to", "group"])
      if (params.has(name))
        throw new BadRequest(`${name} is read on a range (/v1/Pairs/${path.base}/${path.quote}?from=...)`);
    return path.at === "date" ? { ...common, date: path.date! } : common;
  }
  if (asOf) throw new BadRequest("asOf is answered for Latest and a date of a pair, not a range");
  const { from, to } = rangeParameters(params, todayAnywhere(ctx.now()));
  let group: Group | undefined;
  if (groupText !== undefined)
    try {
      group = readGroup(groupText);
    } catch (error) {
      throw new BadRequest((error as Error).message);
    }
  return { ...common, range: { from, to }, ...(group ? { group } : {}) };
}

interface Made {
  generation: number;
  etag: string;
  lastModified: string;
  body: KeptBody;
  fileName: string;
}

/** Answers made, per store: by path, format and query; valid for the store generation they were made in. */
const made = new WeakMap<HistoryStore, Map<string, Made>>();
const MADE_KEPT = 1024;

export const pairs: Handler = async (ctx, req, res, head, route, query) => {
  try {
    const path = readPairPath(route.rest ?? []);
    if (!path) return sendProblem(res, 404, { detail: "No such resource", head });
    const negotiation = negotiate(path.suffix, formatValues(query), req.headers.accept, FORMATS);
    if (!negotiation.ok) {
      const { status, detail, supported } = negotiation;
      return sendProblem(res, status, { detail, extra: { supported }, headers: { vary: "Accept" }, head });
    }
    const format = negotiation.format;
    const q = readQuery(ctx, path, query);
    const store = await currentStore(ctx);
    if (!store) return sendNoStore(res, head);
    const answer = await answerOf(ctx, store, path, q, format, query);
    if ("unknown" in answer) {
      const detail = `No rates stored for bank${answer.unknown.length > 1 ? "s" : ""} ${answer.unknown.join(", ")}`;
      return sendProblem(res, 404, { detail, extra: { banks: answer.unknown }, head });
    }
    return send(req, res, head, format, answer);
  } catch (error) {
    return answerBadRequest(res, head, error);
  }
};

async function answerOf(
  ctx: ServeContext,
  store: HistoryStore,
  path: PairPath,
  q: PairQuery & { group?: Group },
  format: Format,
  query: string,
): Promise<Made | { unknown: string[] }> {
  let byKey = made.get(store);
  if (!byKey) made.set(store, (byKey = new Map<string, Made>()));
  const generation = store.generation();
  // An answer for Latest follows the clock too (a bank's set may become "in force" at midnight somewhere).
  const key = [path.base, path.quote, path.at, path.date ?? "", format, query, todayAnywhere(ctx.now())].join("\u0000");
  const kept = byKey.get(key);
  if (kept && kept.generation === generation) return kept;
  const result = await resolvePair(store, q, todayAnywhere(ctx.now()), pairSettings(), (id) =>
    frequencyOfBank(ctx, id),
  );
  if (result.kind === "unknown") return { unknown: result.unknown };
  const lastModified = newestOf(result);
  // An XLSX package's entries are dated by the newest figure (a range's, by a fixed day: same bytes each time).
  const stamp = new Date(lastModified || "2020-01-01T00:00:00Z");
  const body = await renderPairResult(result, format, q.asOf ? { asOf: q.asOf } : {}, stamp);
  const answer: Made = {
    generation,
    etag: historyEtag("pair", key, result.version),
    lastModified,
    body: new KeptBody(body),
    fileName: `${path.base}-${path.quote}-${path.date ?? (q.range ? `${q.range.from}-${q.range.to}` : "latest")}`,
  };
  if (byKey.size >= MADE_KEPT) byKey.clear();
  byKey.set(key, answer);
  return answer;
}

/** The newest publication time among the banks' figures ("" when the answer reads none). */
function newestOf(result: Exclude<PairResult, { kind: "unknown" }>): string {
  if (result.kind !== "day") return "";
  return result.answer.figures.reduce((m, f) => (f.publishedAt > m ? f.publishedAt : m), "");
}

function send(req: IncomingMessage, res: ServerResponse, head: boolean, format: Format, answer: Made): void {
  const d = {
    format,
    etag: answer.etag,
    ...(answer.lastModified ? { lastModified: answer.lastModified } : {}),
    headers: disposition(format, answer.fileName),
  };
  return sendKept(req, res, head, d, answer.body);
}
