// The daemon's writes to the run log (src/store/runs.ts). A write that fails never fails the run: at
// shutdown the database may already be closed, and the run's outcome is in the process log anyway.
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import {
  recordRunFinished,
  recordRunStarted,
  recordRunWaiting,
  type FinishedRunState,
  type RunReason,
} from "../store/runs.js";
import type { IsoDate } from "../types.js";

export interface RunLog {
  started(bankId: string, reason: RunReason): Promise<void>;
  waiting(bankId: string, wait: { message: string; expected: IsoDate; error?: string }): Promise<void>;
  finished(
    bankId: string,
    end: { state: FinishedRunState; message: string; expected?: IsoDate; error?: string },
  ): Promise<void>;
}

export function createRunLog(store: Store, log: Logger, now: () => Date): RunLog {
  const tolerate = (bankId: string, write: Promise<void>) =>
    write.catch((error: Error) => log.debug({ bank: bankId, err: error.message }, "could not record the run state"));
  return {
    started: (bankId, reason) => tolerate(bankId, recordRunStarted(store, bankId, reason, now())),
    waiting: (bankId, wait) => tolerate(bankId, recordRunWaiting(store, bankId, wait, now())),
    finished: (bankId, end) => tolerate(bankId, recordRunFinished(store, bankId, end, now())),
  };
}
