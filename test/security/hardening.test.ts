// Smaller hardening: the database and its WAL are the owner's alone, a token is taken only in the
// base64url spelling it was issued in, and the pieces of redaction by value (the registry, the logger,
// the URL, the database's own net, the status API).
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";

import { afterAll, describe, expect, it } from "vitest";

import { describeError, FeedError, HttpError } from "../../src/errors.js";
import { redactUrl } from "../../src/feed/redact.js";
import { createLogger } from "../../src/log.js";
import { loadSecretsFromEnv, MASK, redactSecrets, registerSecret } from "../../src/secrets.js";
import { openSqliteStore as openStore } from "../../src/store/database.js";
import { startHarness } from "../serve/support.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "exrates-hardening-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;

describe("the database is the owner's alone", () => {
  it("creates the data directory 0700 and exrates.db, its -wal and -shm 0600", async () => {
    const dataDir = join(tempDir(), "data");
    const path = join(dataDir, "exrates.db");
    const store = await openStore(path);
    try {
      store.sqlite
        .prepare("insert into bank_runs (bank_id, state, reason, started_at) values ('X', 'ok', 'manual', 'now')")
        .run();
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path)).toBe(0o600);
      expect(mode(`${path}-wal`)).toBe(0o600);
      expect(mode(`${path}-shm`)).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it("narrows a database an earlier version left 0644", async () => {
    const path = join(tempDir(), "exrates.db");
    (await openStore(path)).sqlite.close();
    chmodSync(path, 0o644);
    const store = await openStore(path);
    await store.close();
    expect(mode(path)).toBe(0o600);
  });
});

describe("tokens are taken only as issued (strict base64url)", () => {
  it("refuses `==` appended to a segment, padding, and stray bits in a segment's last character", async () => {
    const h = await startHarness();
    try {
      const token = await h.token();
      const get = async (t: string) =>
        (await fetch(`${h.url}/v1/banks/CNB`, { headers: { authorization: `Bearer ${t}` } })).status;
      expect(await get(token)).toBe(200);
      const [header, payload, signature] = token.split(".") as [string, string, string];
      expect(await get(`${token}==`)).toBe(401);
      expect(await get(`${token}=`)).toBe(401);
      expect(await get(`${header}==.${payload}.${signature}`)).not.toBe(200);
      expect(await get(`${header}.${payload}==.${signature}`)).not.toBe(200);
      // 256 signature bytes take 342 characters: the last one carries 4 bits that decode to nothing.
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
      const last = alphabet.indexOf(signature.at(-1)!);
      const strayBits = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
      expect(Buffer.from(strayBits, "base64url")).toEqual(Buffer.from(signature, "base64url"));
      expect(await get(`${header}.${payload}.${strayBits}`)).toBe(401);
      expect(await get(token)).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe("redaction by value", () => {
  const KEY = "k3y-Value/with+odd&chars=9";
  const PAIR = "someone@example.com:pa ss:word";
  loadSecretsFromEnv({ EXRATES_ZZZ_API_KEY: KEY, EXRATES_YYY_API_KEY: PAIR, EXRATES_HOST: "127.0.0.1" });

  it("masks a secret in every spelling, each half of a pair, and leaves short or unconfigured values", () => {
    for (const text of [
      KEY,
      encodeURIComponent(KEY),
      new URLSearchParams({ x: KEY }).toString().slice(2),
      JSON.stringify(KEY),
      "someone@example.com",
      "pa ss:word",
      encodeURIComponent("pa ss:word"),
      Buffer.from(PAIR).toString("base64"),
    ])
      expect(redactSecrets(`before ${text} after`)).not.toContain(text.replace(/^"|"$/g, ""));
    expect(redactSecrets("127.0.0.1 stays")).toBe("127.0.0.1 stays");
    registerSecret("ab"); // too short to search for without masking every word
    expect(redactSecrets("about a cab")).toBe("about a cab");
  });

  it("masks only values long enough to be secrets, and never a common word", () => {
    // A pair whose user half is short (`user`) or a common word (`public`): the halves that are
    // secrets are masked, the user names stay readable everywhere else.
    registerSecret("user:Xq7-long-pass");
    registerSecret("public:9fT2kLm4");
    registerSecret("bank5:Anonymous"); // neither half is searchable; the whole pair is
    const text = "the user agent of the public feed, bank5 and Anonymous readers";
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets("sent Xq7-long-pass and 9fT2kLm4")).toBe(`sent ${MASK} and ${MASK}`);
    expect(redactSecrets("Basic bank5:Anonymous")).toBe(`Basic ${MASK}`);
    expect(redactSecrets("user:Xq7-long-pass")).not.toContain("Xq7-long-pass");
  });

  it("masks a URL by value whatever the parameter is called, then by name for values never configured", () => {
    const url = `https://bank.example/api?series=X&q=${encodeURIComponent(KEY)}&lang=en`;
    expect(redactUrl(url)).toBe(`https://bank.example/api?series=X&q=${MASK}&lang=en`);
    expect(redactUrl("https://si3.bcentral.cl/x.ashx?user=u1&pass=unknown-password&function=GetSeries")).toBe(
      `https://si3.bcentral.cl/x.ashx?user=${MASK}&pass=${MASK}&function=GetSeries`,
    );
  });

  it("masks log lines whatever field holds the secret, and error lines", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger("info", false, sink);
    log.warn({ detail: { note: `sent ${KEY}` }, url: `https://x/?p=${encodeURIComponent(KEY)}` }, `failed for ${PAIR}`);
    const line = lines.join("");
    expect(() => JSON.parse(line) as unknown).not.toThrow();
    for (const s of [KEY, encodeURIComponent(KEY), "someone@example.com", "pa ss:word"]) expect(line).not.toContain(s);
    expect(describeError(new FeedError("ZZZ", `refused key ${KEY}`))).toBe(`ZZZ: refused key ${MASK}`);
    expect(describeError(new HttpError(`bad ${KEY}`))).not.toContain(KEY);
    expect(describeError(new Error(`boom ${KEY}`))).not.toContain(KEY);
  });

  it("the database masks secrets in whatever text column a write puts them", async () => {
    const dir = tempDir();
    const store = await openStore(join(dir, "exrates.db"));
    try {
      store.sqlite
        .prepare(
          "insert into fetches (bank_id, kind, method, url, started_at, error) values ('ZZZ', 'fetch', 'GET', ?, 'now', ?)",
        )
        .run(`https://x/?q=${encodeURIComponent(KEY)}`, `refused: ${KEY}`);
      store.sqlite.prepare("update fetches set error = ? where bank_id = 'ZZZ'").run(`again ${PAIR}`);
      const row = store.sqlite.prepare("select url, error from fetches where bank_id = 'ZZZ'").get() as {
        url: string;
        error: string;
      };
      expect(row).toEqual({ url: `https://x/?q=${MASK}`, error: `again ${MASK}` });
    } finally {
      await store.close();
    }
  });

  it("rows an earlier version wrote for a bank whose credential is configured are cleaned at open", async () => {
    const path = join(tempDir(), "exrates.db");
    const store = await openStore(path);
    // Written around the net, as an earlier version would have.
    store.sqlite.exec("drop trigger temp.exrates_redact_fetches_insert");
    store.sqlite
      .prepare("insert into fetches (bank_id, kind, method, url, started_at) values ('ZZZ', 'fetch', 'GET', ?, 'now')")
      .run(`https://x/?pass=${encodeURIComponent(KEY)}`);
    await store.close();
    process.env.EXRATES_ZZZ_API_KEY = KEY;
    const reopened = await openStore(path);
    try {
      const url = reopened.sqlite.prepare("select url from fetches where bank_id = 'ZZZ'").pluck().get() as string;
      expect(url).toBe(`https://x/?pass=${MASK}`);
    } finally {
      delete process.env.EXRATES_ZZZ_API_KEY;
      await reopened.close();
    }
  });
});
