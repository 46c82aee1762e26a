// Every EXRATES_* setting is checked when the configuration is read, so that a bad one stops
// `exrates start` (and any command) at once with one line naming the variable and what it accepts,
// rather than a daemon that starts and then fails every fetch.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { loadConfig } from "../../src/config.js";
import { exrates } from "../support/cli.js";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe("loadConfig checks every setting", () => {
  it.each([
    ["EXRATES_CHECK_BAND", "abc", 'EXRATES_CHECK_BAND "abc" is not a fraction above 0 and below 10, such as 0.25'],
    ["EXRATES_CHECK_JUMP", "0", 'EXRATES_CHECK_JUMP "0" is not a fraction above 0 and below 10, such as 0.25'],
    ["EXRATES_CHECK_LAG_DAYS", "-1", 'EXRATES_CHECK_LAG_DAYS "-1" is not a whole number of days (0 or more)'],
    ["EXRATES_CHECK_MIN_BANKS", "0", 'EXRATES_CHECK_MIN_BANKS "0" is not a whole number of banks (1 or more)'],
    [
      "EXRATES_SCOPE",
      'rates "all"',
      `EXRATES_SCOPE "rates "all"" is not an OAuth scope: one or more names of printable characters other than '"' and '\\', separated by single spaces`,
    ],
    [
      "EXRATES_INSTANCE_ID",
      "web 1",
      'EXRATES_INSTANCE_ID "web 1" must be 1 to 128 printable characters without spaces (default: host name and pid)',
    ],
    [
      "EXRATES_METRICS_HOST",
      "http://127.0.0.1",
      'EXRATES_METRICS_HOST "http://127.0.0.1" is not an address or a host name (default 127.0.0.1)',
    ],
  ])("%s=%s is refused", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it("takes good values", () => {
    const config = loadConfig({
      EXRATES_CHECK_BAND: "0.1",
      EXRATES_CHECK_LAG_DAYS: "0",
      EXRATES_CHECK_MIN_BANKS: "3",
      EXRATES_SCOPE: "exchange-rates openid",
      EXRATES_INSTANCE_ID: "web-1",
      EXRATES_METRICS_HOST: "::1",
    });
    expect(config).toMatchObject({ scope: "exchange-rates openid", instanceId: "web-1", metricsHost: "::1" });
  });
});

describe("exrates start with a bad setting", () => {
  it("EXRATES_CHECK_BAND=abc: one line, exit 1, nothing started or created", () => {
    const root = mkdtempSync(join(tmpdir(), "exrates-config-"));
    roots.push(root);
    const r = exrates(["start"], {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_PORT: "0",
      EXRATES_CHECK_BAND: "abc",
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('exrates: EXRATES_CHECK_BAND "abc" is not a fraction above 0 and below 10, such as 0.25\n');
    expect(readdirSync(root)).toEqual([]);
  });
});
