// A stop signal is honoured in bounded time whatever state the server is in: the drain (CLOSE_GRACE_MS
// for requests in flight) plus a margin for closing the store and the listeners; past that the process
// exits by itself, with a log line, rather than waiting for something that will not end. The handlers
// themselves never hold the event loop long (figures are bounded: src/store/figure-guard.ts), so the
// timer below can fire.
import type { Logger } from "../../log.js";
import { CLOSE_GRACE_MS } from "./connections.js";

/** Time after a stop signal by which the process has exited, whatever it was doing. */
export const SHUTDOWN_DEADLINE_MS = CLOSE_GRACE_MS + 3000;

/**
 * Arms the deadline for a stop begun by `signal`: past it, the process exits (code 0 when the close
 * had finished and only something else lingered, 1 otherwise). Returns the function that marks the
 * close finished. The timer does not keep the process alive.
 */
export function armShutdownDeadline(log: Logger, signal: string, ms = SHUTDOWN_DEADLINE_MS): () => void {
  let closed = false;
  const timer = setTimeout(() => {
    log.error({ signal, deadlineMs: ms, closed }, "the server did not stop within its shutdown deadline: exiting now");
    process.exit(closed ? 0 : 1);
  }, ms);
  timer.unref();
  return () => {
    closed = true;
  };
}
