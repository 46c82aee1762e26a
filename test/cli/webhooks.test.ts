// `exrates webhooks`: add prints the secret once (list never does), test sends a signed message the
// standardwebhooks package verifies, remove removes; bad input is one line and exit 1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";

import { addWebhook } from "../../src/store/events.js";
import { openStore } from "../../src/store/database.js";
import { cli } from "../e2e/support.js";
import { startReceiver } from "../support/receiver.js";

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe("exrates webhooks", () => {
  it("adds, lists without the secret, tests with a signed request, removes", async () => {
    root = mkdtempSync(join(tmpdir(), "exrates-webhooks-"));
    const env = { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out"), LOG_LEVEL: "warn" };
    const receiver = await startReceiver("/in");
    const { url, received: got } = receiver;
    try {
      const added = await cli(["webhooks", "add", url, "--banks", "ecb,CNB", "--json", "--allow-private"], env);
      expect(added.code).toBe(0);
      const hook = JSON.parse(added.stdout) as { id: string; banks: string[]; secret: string };
      expect(hook.banks).toEqual(["CNB", "ECB"]);
      expect(hook.secret).toMatch(/^whsec_/);
      expect(added.stderr).not.toContain(hook.secret);

      const listed = await cli(["webhooks", "list"], env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(hook.id);
      expect(listed.stdout).toContain("CNB,ECB");
      expect(listed.stdout + listed.stderr).not.toContain(hook.secret);

      const tested = await cli(["webhooks", "test", hook.id], env);
      expect(tested.stdout).toContain("delivered (204)");
      expect(got).toHaveLength(1);
      const message = new Webhook(hook.secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>);
      expect(message).toMatchObject({ type: "webhook.test", data: { webhookId: hook.id } });
      expect(tested.stderr).not.toContain(hook.secret);

      expect((await cli(["webhooks", "remove", hook.id], env)).code).toBe(0);
      expect((await cli(["webhooks", "list"], env)).stdout).toContain("no webhooks");
      const missing = await cli(["webhooks", "remove", hook.id], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`no webhook ${hook.id}`);
      const bad = await cli(["webhooks", "add", "ftp://example.com/x"], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("http or https");
      // Link-local and metadata addresses never; loopback and private ones only with --allow-private.
      for (const refused of [
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00:ec2::254]/",
        "http://[::ffff:169.254.169.254]/",
      ]) {
        const r = await cli(["webhooks", "add", refused, "--allow-private"], env);
        expect(r.code, refused).toBe(1);
        expect(r.stderr).toContain("link-local, cloud metadata");
      }
      const loopback = await cli(["webhooks", "add", "http://127.0.0.1:9/hook"], env);
      expect(loopback.code).toBe(1);
      expect(loopback.stderr).toContain("needs --allow-private");
      const privateOne = await cli(["webhooks", "add", "https://10.1.2.3/hook"], env);
      expect(privateOne.stderr).toContain("needs --allow-private");
      expect((await cli(["webhooks", "list"], env)).stdout).toContain("no webhooks");
    } finally {
      await receiver.close();
    }
  });
});

describe("exrates webhooks add refuses what could never be delivered", () => {
  const setup = () => {
    root = mkdtempSync(join(tmpdir(), "exrates-webhooks-"));
    return { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out"), LOG_LEVEL: "warn" };
  };

  it("a URL carrying credentials: refused without echoing the password; list never prints an old one", async () => {
    const env = setup();
    const refused = await cli(["webhooks", "add", "https://erp:hunter2pass@erp.example/hooks"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("must not carry credentials");
    expect(refused.stderr + refused.stdout).not.toContain("hunter2pass");
    expect((await cli(["webhooks", "list"], env)).stdout).toContain("no webhooks");

    // One stored before such URLs were refused is listed with its credentials masked.
    const store = await openStore(join(env.EXRATES_DATA_DIR, "exrates.db"));
    try {
      await addWebhook(store, { url: "https://erp:hunter2pass@erp.example/hooks?x=1" });
    } finally {
      await store.close();
    }
    for (const args of [
      ["webhooks", "list"],
      ["webhooks", "list", "--json"],
    ]) {
      const listed = await cli(args, env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain("https://***@erp.example/hooks?x=1");
      expect(listed.stdout + listed.stderr).not.toContain("hunter2pass");
      expect(listed.stdout).not.toContain("erp:");
    }
  });
});

describe("exrates webhooks add --banks", () => {
  it("refuses a bank that does not exist, naming it, and stores nothing", async () => {
    root = mkdtempSync(join(tmpdir(), "exrates-webhooks-"));
    const env = { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out"), LOG_LEVEL: "warn" };
    const refused = await cli(["webhooks", "add", "https://erp.example/hooks", "--banks", "ECB,XXX,zz9"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("unknown banks XXX, ZZ9 (known: ");
    expect(refused.stderr).toContain("ECB");
    expect((await cli(["webhooks", "list"], env)).stdout).toContain("no webhooks");
    const added = await cli(["webhooks", "add", "https://erp.example/hooks", "--banks", "ecb", "--json"], env);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ banks: ["ECB"] });
  });
});
