// Process-wide metrics (prom-client): what happens outside the server but in its process, such as
// the publisher in `exrates start`. The server's `/metrics` (src/serve/metrics.ts) appends them.
import { Histogram, Registry } from "prom-client";

export const processRegistry = new Registry();

const publishDuration = new Histogram({
  name: "exrates_publish_duration_seconds",
  help: "Time to publish a generation of the tree (render, write, switch), in seconds",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [processRegistry],
});

/** Runs a publication and records its duration, whether it succeeded or not. */
export async function timedPublish<T>(run: () => Promise<T>): Promise<T> {
  const end = publishDuration.startTimer();
  try {
    return await run();
  } finally {
    end();
  }
}
