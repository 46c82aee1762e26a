// The tree in an S3-compatible bucket (EXRATES_PUBLISH_URL), against s3rver started here: every
// format readable with the stored digits, only changed files uploaded, the pointer written last so an
// interrupted upload leaves readers on the previous whole generation, cleanup, and clear errors.
import { readFile } from "node:fs/promises";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";

import * as XLSX from "@e965/xlsx";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { loadConfig } from "../../src/config.js";
import { UserError } from "../../src/errors.js";
import { latestPath, publish, unsigned } from "../support/unsigned.js";
import { ObjectStore, ObjectStoreError } from "../../src/publish/s3.js";
import {
  GENERATIONS_PREFIX,
  OBJECTS_PREFIX,
  POINTER_KEY,
  S3TreeTarget,
  besideKey,
  manifestKey,
  objectKeysOf,
  readPointer,
} from "../../src/publish/s3-target.js";
import { JWKS_FILE, SIGNATURE_FILE, loadPublicationKeys } from "../../src/publish/signing.js";
import { readCurrentGeneration, type Manifest } from "../../src/publish/tree.js";
import { bucketPublisher, treeTargetFor } from "../../src/publish/target-for.js";
import { LocalTreeTarget } from "../../src/publish/target.js";
import { S3TreeSource } from "../../src/serve/state/tree-s3.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";
import { S3_SECRET, startS3Server, type S3TestServer } from "./s3-server.js";

let s3: S3TestServer;
let ctx: Awaited<ReturnType<typeof tempStore>>;
let prefixCount = 0;
let url: string;
const AAA = testBank("AAA");
const BBB = testBank("BBB", { bankCurrency: "EUR", quoteType: "Indirect" });

const target = (options: { abandonedAfterMs?: number } = {}) =>
  S3TreeTarget.fromUrl(url, join(ctx.dir, "out"), s3.env, options);

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

beforeEach(async () => {
  ctx = await tempStore();
  // Each test its own prefix in the one bucket.
  url = `s3://${s3.bucket}/tree-${++prefixCount}/rates`;
  s3.failPutsAfter(undefined);
  storeRates(ctx.store, "AAA", [
    { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" },
    { effectiveDate: "2026-03-03", currency: "HUF", rate: "6.304", unitMultiplier: 2 },
  ]);
  storeRates(ctx.store, "BBB", [{ effectiveDate: "2026-03-03", currency: "USD", rate: "1.0850" }]);
});
afterEach(() => ctx.cleanup());

/** A bank's figure changed on the same date (a correction). */
const correctAAA = (rate: string, at = "2026-03-03T15:00:00Z") =>
  storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate }], new Date(at));

async function currentManifest(t: S3TreeTarget): Promise<Manifest> {
  return (await t.current())!.manifest;
}

describe("publishing to a bucket", () => {
  it("writes every format with the stored digits, byte for byte what the local tree holds", async () => {
    const t = target();
    const result = await publish(ctx.store, [AAA, BBB], t);
    expect(result.rendered).toEqual(["AAA", "BBB"]);
    const current = (await t.current())!;
    expect(current.manifest.generation).toBe(result.generation);
    expect((await readPointer(t.store))!.generation).toBe(result.generation);

    const json = (await current.readText(latestPath("AAA", "json")))!;
    expect(json).toMatch(/"EUR": \{\s*"rate": 24\.180\s*\}/);
    expect(json).toMatch(/"HUF": \{\s*"rate": 6\.304,\s*"unitMultiplier": 2\s*\}/);
    expect((await current.readText(latestPath("AAA", "xml")))!).toContain('value="24.180"');
    expect((await current.readText(latestPath("AAA", "csv")))!).toContain("AAA,EUR,CZK,2026-03-03,24.180,1");
    expect((await current.readText(latestPath("BBB", "csv")))!).toContain("1.0850");

    // The same store published locally gives the same bytes for every file and sibling.
    const out = join(ctx.dir, "local-out");
    await publish(ctx.store, [AAA, BBB], out);
    const local = (await readCurrentGeneration(out))!;
    expect(Object.keys(current.manifest.files).sort()).toEqual(Object.keys(local.manifest.files).sort());
    for (const [path, file] of Object.entries(current.manifest.files)) {
      expect(file.sha256, path).toBe(local.manifest.files[path]!.sha256);
      const bytes = await t.store.get(`${OBJECTS_PREFIX}${file.sha256}`);
      expect(bytes?.equals(await readFile(join(local.dir, path))), path).toBe(true);
      for (const [encoding, suffix] of [
        ["br", ".br"],
        ["gzip", ".gz"],
      ] as const) {
        if (!file.encodings.includes(encoding)) continue;
        const sibling = await t.store.get(`${OBJECTS_PREFIX}${file.sha256}${suffix}`);
        expect(sibling?.equals(await readFile(join(local.dir, path + suffix))), path + suffix).toBe(true);
      }
    }

    // The XLSX holds the figure as its digits.
    const xlsxFile = current.manifest.files[latestPath("AAA", "xlsx")]!;
    const wb = XLSX.read((await t.store.get(`${OBJECTS_PREFIX}${xlsxFile.sha256}`))!);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false });
    expect(JSON.stringify(rows)).toContain("24.180");
  });

  it("uploads only the files that changed, and writes the pointer last", async () => {
    const t = target();
    await publish(ctx.store, [AAA, BBB], t);
    const before = await currentManifest(t);
    s3.reset();
    correctAAA("24.190");
    const result = await publish(ctx.store, [AAA, BBB], t);
    expect(result.rendered).toEqual(["AAA"]);
    expect(result.carried).toEqual(["BBB"]);
    const after = await currentManifest(t);

    const oldKeys = objectKeysOf(before);
    const changed = [...objectKeysOf(after)].filter((k) => !oldKeys.has(k));
    // AAA's four Latest files (JSON, XML, CSV with siblings; XLSX alone): ten objects. Its bank document
    // and banks.json are the same bytes (the same date), so not uploaded again; nothing of BBB is.
    expect(changed).toHaveLength(10);
    const prefix = "tree-2/rates/";
    const puts = s3.puts();
    expect(puts.slice(0, -2).sort()).toEqual(changed.map((k) => prefix + k).sort());
    expect(puts.slice(-2)).toEqual([prefix + manifestKey(result.generation), prefix + POINTER_KEY]);

    // Nothing changed: a publish uploads the manifest and the pointer only.
    s3.reset();
    await publish(ctx.store, [AAA, BBB], t);
    expect(s3.puts()).toHaveLength(2);
  });

  it("an upload interrupted at any point leaves the pointer and readers on the previous whole generation; the next publish completes", async () => {
    const t = target();
    const first = await publish(ctx.store, [AAA, BBB], t);
    const reader = new S3TreeSource(t.store);
    const served = async () => {
      const tree = await reader.load((await reader.currentTarget())!);
      return { generation: tree.generation, json: tree.banks.get("AAA")!.latest.json!.identity.body.toString() };
    };
    expect((await served()).json).toContain("24.180");

    // 10 objects, then the manifest, then the pointer: cut after 0, 5, 10 (manifest fails) and 11 (pointer fails).
    let rate = 24.2;
    for (const cut of [0, 5, 10, 11]) {
      correctAAA(rate.toFixed(3), `2026-03-03T16:${String(cut).padStart(2, "0")}:00Z`);
      rate += 0.01;
      s3.failPutsAfter(cut);
      const failure = await publish(ctx.store, [AAA, BBB], t).then(
        () => undefined,
        (error: unknown) => error,
      );
      s3.failPutsAfter(undefined);
      expect(failure, `cut after ${cut}`).toBeInstanceOf(ObjectStoreError);
      const message = (failure as Error).message;
      expect(message).toMatch(new RegExp(`^PUT s3://${s3.bucket}/tree-3/rates/(objects|generations|current)`));
      expect(message).not.toContain(S3_SECRET);
      expect((await readPointer(t.store))!.generation, `cut after ${cut}`).toBe(first.generation);
      const seen = await served();
      expect(seen.generation).toBe(first.generation);
      expect(seen.json).toContain("24.180");
    }

    const next = await publish(ctx.store, [AAA, BBB], t);
    expect(next.rendered).toEqual(["AAA"]);
    expect((await readPointer(t.store))!.generation).toBe(next.generation);
    const now = await served();
    expect(now.generation).toBe(next.generation);
    expect(now.json).toMatch(new RegExp(`"EUR": \\{\\s*"rate": ${(rate - 0.01).toFixed(3)}\\s*\\}`));
  });

  it("removes old generations (keeping the previous ones) and every object no remaining generation uses", async () => {
    const t = target({ abandonedAfterMs: 0 });
    const generations: string[] = [];
    let firstLatest = "";
    for (const [i, rate] of ["24.201", "24.202", "24.203", "24.204", "24.205"].entries()) {
      correctAAA(rate, `2026-03-03T17:0${i}:00Z`);
      generations.push((await publish(ctx.store, [AAA, BBB], t, { keep: 2 })).generation);
      if (i === 0)
        firstLatest = `${OBJECTS_PREFIX}${(await currentManifest(t)).files[latestPath("AAA", "json")]!.sha256}`;
    }
    const left = (await t.store.list(GENERATIONS_PREFIX)).map((o) => o.key).sort();
    expect(left).toEqual(generations.slice(-3).map(manifestKey));
    const used = new Set<string>();
    for (const g of generations.slice(-3)) {
      const body = await t.store.get(manifestKey(g));
      for (const k of objectKeysOf(JSON.parse(body!.toString()) as Manifest)) used.add(k);
    }
    const objects = (await t.store.list(OBJECTS_PREFIX)).map((o) => o.key).sort();
    expect(objects).toEqual([...used].sort());
    // The first generation's own Latest.json is gone; BBB's files, used by every generation, stay.
    expect(objects).not.toContain(firstLatest);
    const bbb = (await currentManifest(t)).files[latestPath("BBB", "json")]!;
    expect(objects).toContain(`${OBJECTS_PREFIX}${bbb.sha256}`);
  });

  it("signs beside each manifest under the generation's own names, and prunes a generation's signature with it", async () => {
    const t = target({ abandonedAfterMs: 0 });
    const signing = await loadPublicationKeys(join(ctx.dir, "data"));
    const generations: string[] = [];
    for (const [i, rate] of ["24.211", "24.212", "24.213", "24.214"].entries()) {
      correctAAA(rate, `2026-03-03T18:0${i}:00Z`);
      generations.push((await publish(ctx.store, [AAA, BBB], t, { keep: 1, signing })).generation);
    }
    // A crash between the signature and the manifest leaves a generation with no manifest: pruned too.
    const crashed = "00000000T000000000Z-crashed";
    await t.store.put(besideKey(crashed, SIGNATURE_FILE), "x", "application/json");
    correctAAA("24.215", "2026-03-03T18:09:00Z");
    generations.push((await publish(ctx.store, [AAA, BBB], t, { keep: 1, signing })).generation);
    const kept = generations.slice(-2);
    const left = (await t.store.list(GENERATIONS_PREFIX)).map((o) => o.key).sort();
    expect(left).toEqual(
      kept.flatMap((g) => [manifestKey(g), besideKey(g, SIGNATURE_FILE), besideKey(g, JWKS_FILE)]).sort(),
    );
    // Named `generations/<gen>/manifest.json.jws`, not `.../manifest.json.manifest.json.jws`.
    expect(besideKey(kept[1]!, SIGNATURE_FILE)).toBe(`${GENERATIONS_PREFIX}${kept[1]}/manifest.json.jws`);
  });

  it("keeps objects that may belong to a publish under way (younger than the grace period)", async () => {
    const t = target(); // default grace: an hour
    await publish(ctx.store, [AAA, BBB], t, { keep: 0 });
    correctAAA("24.300");
    await publish(ctx.store, [AAA, BBB], t, { keep: 0 });
    // keep 0: the first generation's manifest went at once; its objects are young, so they stay.
    expect(await t.store.list(GENERATIONS_PREFIX)).toHaveLength(1);
    const objects = (await t.store.list(OBJECTS_PREFIX)).map((o) => o.key);
    expect(objects.length).toBeGreaterThan(objectKeysOf(await currentManifest(t)).size);
  });
});

describe("the configuration's target", () => {
  it("is out/ without EXRATES_PUBLISH_URL, and the daemon keeps its own publisher", async () => {
    const config = loadConfig({ EXRATES_OUT_DIR: join(ctx.dir, "out") });
    expect(await treeTargetFor(config)).toBeInstanceOf(LocalTreeTarget);
    expect(await bucketPublisher(config, ctx.store, [AAA, BBB], unsigned)).toBeUndefined();
  });

  it("is the bucket with it; the daemon's publisher renders the banks named, or every changed one", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, s3.env); // the SDK's own sources, as in production
    try {
      const config = loadConfig({ EXRATES_OUT_DIR: join(ctx.dir, "out"), EXRATES_PUBLISH_URL: url });
      expect(await treeTargetFor(config)).toBeInstanceOf(S3TreeTarget);
      const daemonPublish = (await bucketPublisher(config, ctx.store, [AAA, BBB], unsigned))!;
      expect((await daemonPublish(["BBB"])).rendered).toEqual(["BBB"]);
      correctAAA("24.400");
      const all = await daemonPublish([]);
      expect(all.rendered).toEqual(["AAA"]);
      expect(all.carried).toEqual(["BBB"]);
      const t = target();
      expect((await readPointer(t.store))!.generation).toBe(all.generation);
      expect(await (await t.current())!.readText(latestPath("AAA", "csv"))).toContain(
        "AAA,EUR,CZK,2026-03-03,24.400,1",
      );
    } finally {
      for (const name of Object.keys(s3.env)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

describe("bad configuration", () => {
  it("refuses a malformed EXRATES_PUBLISH_URL with a clear error", () => {
    for (const [value, says] of [
      ["https://bucket/x", /is not an s3:\/\/bucket\/prefix URL/],
      ["s3:/bucket", /is not an s3:\/\/bucket\/prefix URL/],
      ["s3://", /"" is not a bucket name/],
      ["s3://Bad_Bucket/x", /"Bad_Bucket" is not a bucket name/],
      ["s3://bucket//x", /empty, "\." or "\.\." segments/],
      ["s3://bucket/a/../b", /empty, "\." or "\.\." segments/],
    ] as const) {
      expect(() => loadConfig({ EXRATES_PUBLISH_URL: value }), value).toThrow(UserError);
      expect(() => loadConfig({ EXRATES_PUBLISH_URL: value }), value).toThrow(says);
    }
    expect(loadConfig({ EXRATES_PUBLISH_URL: "s3://my-bucket/exrates/tree/" }).publishUrl).toBe(
      "s3://my-bucket/exrates/tree/",
    );
    expect(loadConfig({}).publishUrl).toBeUndefined();
  });

  it("refuses an AWS_ENDPOINT_URL that is not an http(s) URL", () => {
    expect(() =>
      S3TreeTarget.fromUrl(url, join(ctx.dir, "out"), { ...s3.env, AWS_ENDPOINT_URL: "127.0.0.1:9000" }),
    ).toThrow('AWS_ENDPOINT_URL "127.0.0.1:9000" is not an http(s) URL');
  });

  it("names a missing bucket and the store's code, and writes nothing", async () => {
    const t = S3TreeTarget.fromUrl("s3://no-such-bucket/x", join(ctx.dir, "out"), s3.env);
    const failure = await publish(ctx.store, [AAA], t).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ObjectStoreError);
    expect((failure as Error).message).toMatch(
      /^GET s3:\/\/no-such-bucket\/x\/current\.json failed: NoSuchBucket \(HTTP 404\)/,
    );
    expect((failure as Error).message).toContain("create it, or fix EXRATES_PUBLISH_URL");
    expect(s3.requests.filter((r) => r.method === "PUT" && r.path.startsWith("/no-such-bucket"))).toEqual([]);
  });

  it("refused credentials give the store's code and never the secret", async () => {
    const wrong = "wrong-secret-value-123";
    const t = S3TreeTarget.fromUrl(url, join(ctx.dir, "out"), {
      ...s3.env,
      AWS_ACCESS_KEY_ID: "NOT-A-KEY",
      AWS_SECRET_ACCESS_KEY: wrong,
    });
    const failure = await publish(ctx.store, [AAA], t).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ObjectStoreError);
    const message = (failure as Error).message;
    expect(message).toMatch(new RegExp(`s3://${s3.bucket}/tree-\\d+/rates`));
    expect(message).toMatch(/ failed: InvalidAccessKeyId \(HTTP 403\); the access key is not known/);
    expect(message).not.toContain(wrong);
    expect(JSON.stringify(failure)).not.toContain(wrong);
  });
});

describe("a store that stops answering", () => {
  it("fails a pointer read after 5 s instead of holding its caller (a server following the pointer) for ever", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const store = ObjectStore.fromUrl(`s3://${s3.bucket}/silent`, {
        ...s3.env,
        AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
      });
      const started = Date.now();
      const failure = await readPointer(store).catch((error: unknown) => error);
      const waited = Date.now() - started;
      expect(failure).toBeInstanceOf(ObjectStoreError);
      expect((failure as Error).message).toContain(`GET s3://${s3.bucket}/silent/current.json failed`);
      expect(waited).toBeGreaterThanOrEqual(4_900);
      expect(waited).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});
