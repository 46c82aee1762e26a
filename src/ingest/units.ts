// Units by evidence: a figure whose answer does not state its unit and whose adapter does not know it
// (a currency the bank started quoting last month) is held by the adapter with its figure whole. Here
// the other banks' figures for that currency on the same or nearest earlier day settle it: the power of
// ten (1, 10 ... 10000 units) that puts the figure within the check's band of at least `minBanks` other
// banks' crosses, when exactly one does. The figure is then stored with that unit and a derivation
// naming the evidence; otherwise it stays held, the reason saying why the evidence did not settle it.
// Figures are measured as the cross-bank check measures them (consensus.ts): against the bank's base
// where other banks quote it, else through the bank's own figure of a common currency.
import { isIsoCurrency } from "../feed/currency.js";
import { isIsoDate } from "../feed/dates.js";
import { storedAlready, type ScreeningSnapshot } from "../store/ingest-data.js";
import type { BankQuoting, HeldRow, RateRecord, UnitDerivation, UnitlessFigure } from "../types.js";
import {
  OwnPrices,
  consensusOf,
  priceOf,
  priceTables,
  significant,
  type Consensus,
  type PriceTables,
} from "./consensus.js";
import type { CrossCheckConfig } from "./sanity.js";
import { POSITIVE_DECIMAL } from "./validate.js";

/** The powers of ten a figure's unit may be established as (1 to 10000 units). */
const UNIT_POWERS = [0, 1, 2, 3, 4] as const;

/** One answer's held rows after the evidence: those still held, and the figures now established. */
export interface SettledUnits {
  held: HeldRow[];
  established: RateRecord[];
}

interface Evidence {
  consensus: Consensus;
  measure: string;
  /** The figure's price in `measure` for 10^power units. */
  priceFor: (power: number) => number;
  through: string;
}

/** What the other banks say the figure's currency is worth, in the bank's base or a common currency. */
function evidenceFor(
  f: UnitlessFigure,
  quoting: BankQuoting,
  tables: PriceTables,
  own: () => OwnPrices,
  lagDays: number,
): Evidence | undefined {
  const priceAt = (power: number) => priceOf(f.rate, power, quoting.quoteType);
  const base = quoting.baseCurrency;
  const consensus = consensusOf(tables, f.effectiveDate, f.currency, base, lagDays);
  if (consensus) return { consensus, measure: base, priceFor: priceAt, through: "" };
  const common = own().commonMeasure(f.effectiveDate, f.currency);
  if (!common) return undefined;
  const { measure, measurePrice } = common;
  const through = ` through the bank's ${measure} at ${significant(measurePrice)} ${base}`;
  return { consensus: common.consensus, measure, priceFor: (p) => priceAt(p) / measurePrice, through };
}

/** The figure with its unit established, or why the evidence does not settle it. */
export function establishUnit(
  f: UnitlessFigure,
  quoting: BankQuoting,
  tables: PriceTables,
  own: () => OwnPrices,
  config: CrossCheckConfig,
): RateRecord | string {
  const evidence = tables.size ? evidenceFor(f, quoting, tables, own, config.lagDays) : undefined;
  if (!evidence)
    return `no other bank quotes ${f.currency} in ${quoting.baseCurrency} within ${config.lagDays} days, and no figure of the bank that day in a common currency is confirmed to measure it through`;
  const { consensus, measure } = evidence;
  const tolerance = Math.log(1 + config.band);
  const fits = UNIT_POWERS.map((power) => {
    const price = evidence.priceFor(power);
    const agreeing = consensus.bankIds.filter((_b, i) => Math.abs(Math.log(price / consensus.prices[i]!)) <= tolerance);
    return { power, price, agreeing };
  }).filter((fit) => fit.agreeing.length >= config.minBanks);
  const market = `${significant(consensus.price)} ${measure} per ${f.currency} from ${consensus.banks} other bank${consensus.banks > 1 ? "s" : ""} on ${consensus.date}`;
  if (fits.length !== 1) {
    return fits.length
      ? `units ${fits.map((fit) => 10 ** fit.power).join(" and ")} all fit ${market}`
      : `no unit from 1 to 10000 puts it within ${config.band * 100}% of ${config.minBanks} banks (${market})`;
  }
  const { power, price, agreeing } = fits[0]!;
  const record: RateRecord = { effectiveDate: f.effectiveDate, currency: f.currency, rate: f.rate };
  if (power) record.unitMultiplier = power;
  const banks = `${agreeing.length} banks (${[...agreeing].sort().join(", ")} on ${consensus.date})`;
  const figure = `${significant(price)} ${measure} per ${f.currency}${evidence.through}, theirs ${significant(consensus.price)}`;
  const derivation: UnitDerivation = `unit ${10 ** power} by evidence of ${banks}: ${figure}`;
  record.derivation = f.derivation ? `${derivation}; ${f.derivation}` : derivation;
  return record;
}

/** A figure the evidence may settle: a real date, an ISO currency, a positive decimal. */
const settleable = (f: UnitlessFigure) =>
  isIsoDate(f.effectiveDate) && isIsoCurrency(f.currency) && POSITIVE_DECIMAL.test(f.rate);

/**
 * The held rows of each answer after the evidence: figures stored already (their unit established
 * before) are dropped, figures the other banks settle become records, the rest stay held with the
 * evidence's word added to their reason. A figure whose date and currency another record or another
 * held figure of the ingest also gives stays held (the gate's conflict rule). `check` false: only the
 * figures stored already are settled.
 */
export function settleUnits(
  quoting: BankQuoting,
  answers: ReadonlyArray<{ readonly records: readonly RateRecord[]; readonly held: readonly HeldRow[] }>,
  snapshot: ScreeningSnapshot,
  check: CrossCheckConfig | false,
): SettledUnits[] {
  // Nothing to settle (the common case, and every row of a long history): no key is counted.
  if (!answers.some((a) => a.held.some((h) => h.unitless)))
    return answers.map((a) => ({ held: [...a.held], established: [] }));
  const stored = storedAlready(snapshot.own);
  const keys = new Map<string, number>();
  const count = (key: string) => keys.set(key, (keys.get(key) ?? 0) + 1);
  for (const a of answers) {
    for (const r of a.records) count(`${r.effectiveDate} ${r.currency}`);
    for (const h of a.held) if (h.unitless) count(`${h.unitless.effectiveDate} ${h.unitless.currency}`);
  }
  const tables: PriceTables = check ? priceTables(snapshot.others, snapshot.banks) : new Map<string, never>();
  let own: OwnPrices | undefined;
  const ownPrices = () =>
    (own ??= new OwnPrices(quoting, tables, check || { band: 0, lagDays: 0 }, snapshot.own, snapshot.changed.flat()));
  return answers.map((a) => {
    const out: SettledUnits = { held: [], established: [] };
    for (const h of a.held) {
      const f = h.unitless;
      if (!f || !settleable(f)) out.held.push(h);
      else if (stored(f)) continue;
      else if (!check || keys.get(`${f.effectiveDate} ${f.currency}`)! > 1) out.held.push(h);
      else {
        const found = establishUnit(f, quoting, tables, ownPrices, check);
        if (typeof found === "string")
          out.held.push({ ...h, reason: `${h.reason}; other banks do not settle it: ${found}` });
        else out.established.push(found);
      }
    }
    return out;
  });
}
