// `GET /v1/status`: every bank's scheduling state and which instance schedules, from the scheduler of
// this process (`exrates start`); `exrates serve` runs none and answers 404.
import { redactSecrets } from "../../../secrets.js";
import type { Handler } from "../../context.js";
import { sendJson, sendProblem } from "../../http/respond.js";

export const status: Handler = async (ctx, _req, res, head) => {
  if (ctx.databaseUnreadable !== undefined) {
    const detail = `The database cannot be read (${ctx.databaseUnreadable}); the published tree is served as it is`;
    return sendProblem(res, 503, { detail, extra: { database: "unreadable" }, headers: { "retry-after": "60" }, head });
  }
  if (!ctx.status) {
    const detail = "No scheduler runs in this process; `exrates start` serves the status";
    return sendProblem(res, 404, { detail, head });
  }
  // Every client of the API reads this: a secret that reached a stored error is masked here too.
  const [banks, scheduler] = await Promise.all([ctx.status(), ctx.scheduler?.()]);
  const text = redactSecrets(JSON.stringify(scheduler ? { banks, scheduler } : { banks }));
  sendJson(res, 200, JSON.parse(text) as unknown, { "cache-control": "no-store" }, head);
};
