// Every migration, in order. Add a new file and one line here; never edit a released migration.
import type { Migration } from "../kysely.js";

import { migration001Rates } from "./001_rates.js";
import { migration002Auth } from "./002_auth.js";
import { migration003Runs } from "./003_runs.js";
import { migration004Anomalies } from "./004_anomalies.js";
import { migration005Events } from "./005_events.js";
import { migration006Scale } from "./006_scale.js";
import { migration007AsOf } from "./007_as_of.js";
import { migration008Periods } from "./008_periods.js";
import { migration009ImportProvenance } from "./009_import_provenance.js";
import { migration010RatesFetchCheck } from "./010_rates_fetch_check.js";

export const migrations: Record<string, Migration> = {
  "001_rates": migration001Rates,
  "002_auth": migration002Auth,
  "003_runs": migration003Runs,
  "004_anomalies": migration004Anomalies,
  "005_events": migration005Events,
  "006_scale": migration006Scale,
  "007_as_of": migration007AsOf,
  "008_periods": migration008Periods,
  "009_import_provenance": migration009ImportProvenance,
  "010_rates_fetch_check": migration010RatesFetchCheck,
};
