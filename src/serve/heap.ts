// `exrates serve`'s young generation kept at V8's initial size. Under Latest's load V8 grows the
// semi-spaces to their 16 MiB maximum (32 MiB resident) although what survives a scavenge there is a
// few hundred KiB: a request's objects die young. A scavenge costs what survives, not what died, so
// scavenging a 1 MiB semi-space more often costs the hot path little (BENCHMARKS.md, Serve, issue 39).
// The size itself is fixed when the heap is made (`--max-semi-space-size` on node's command line);
// the growth factor can be set once the process runs, but before the young generation has grown: the CLI
// sets it first thing for `exrates serve` (src/cli/main.ts), before the command's modules load.
import { setFlagsFromString } from "node:v8";

/** Stops the young generation's growth, unless node was started with a semi-space flag of its own. */
export function keepYoungGenerationSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
): boolean {
  const given = (flag: string) => /semi[-_]space/.test(flag);
  if (execArgv.some(given) || given(nodeOptions)) return false;
  setFlagsFromString("--semi-space-growth-factor=1");
  return true;
}
