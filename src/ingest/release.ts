// `exrates anomalies release ID`: a person checked a held figure and publishes it. The figure is stored
// as coming from the answer it was held from, the anomaly is marked released (when and by whom) in the
// same transaction, and the next ingests take that figure without holding it again.
import { UserError } from "../errors.js";
import { isPublishableCurrency } from "../feed/currency.js";
import { isIsoDate } from "../feed/dates.js";
import { getAnomaly, type Anomaly } from "../store/anomalies.js";
import type { Store } from "../store/database.js";
import { storeRelease } from "../store/rates.js";
import type { Derivation, RateRecord } from "../types.js";
import { POSITIVE_DECIMAL } from "./validate.js";

/** The record a held anomaly stands for, or a UserError saying why it cannot be published. */
export function releasableRecord(a: Anomaly): RateRecord {
  const problem =
    a.effectiveDate === null || !isIsoDate(a.effectiveDate)
      ? `its date "${a.effectiveDate ?? ""}" is not a real date`
      : a.currency === null || !isPublishableCurrency(a.currency)
        ? `its currency "${a.currency ?? ""}" is neither an ISO 4217 code nor a market code`
        : a.rate === null || !POSITIVE_DECIMAL.test(a.rate)
          ? `its figure "${a.rate ?? ""}" is not a positive decimal`
          : a.validTo !== null && (!isIsoDate(a.validTo) || a.validTo < a.effectiveDate)
            ? `its validity end "${a.validTo}" is not a date on or after ${a.effectiveDate}`
            : undefined;
  if (problem) throw new UserError(`anomaly ${a.id} cannot be published: ${problem}; fix it at the source instead`);
  const record: RateRecord = { effectiveDate: a.effectiveDate!, currency: a.currency!, rate: a.rate! };
  if (a.unitMultiplier) record.unitMultiplier = a.unitMultiplier;
  if (a.derivation) record.derivation = a.derivation as Derivation;
  // A period source's figure is in force from its date to this day; without it, never.
  if (a.validTo !== null) record.validTo = a.validTo;
  return record;
}

/** Releases a held anomaly: stores its figure and marks it released. Returns the anomaly as it was. */
export async function releaseAnomaly(store: Store, id: number, by: string, now: Date = new Date()): Promise<Anomaly> {
  const anomaly = await getAnomaly(store, id);
  if (!anomaly) throw new UserError(`no anomaly ${id} (exrates anomalies lists them)`);
  if (anomaly.status !== "held") throw new UserError(`anomaly ${id} is ${anomaly.status}, not held`);
  await storeRelease(store, anomaly, releasableRecord(anomaly), by, now);
  return anomaly;
}
