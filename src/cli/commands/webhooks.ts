// `exrates webhooks add <url> [--banks ECB,CNB] [--json] | list [--json] | remove <id> | resume <id> | test <id>`:
// the receivers the daemon POSTs each publication to (src/events/webhooks.ts). A signing secret is
// printed once, by `add`; nothing else shows it.
import type { Command } from "commander";

import { sendSigned } from "../../events/webhooks.js";
import { UserError } from "../../errors.js";
import { knownBankIds } from "../../feed/registry.js";
import {
  addWebhook,
  getWebhook,
  listWebhooks,
  removeWebhook,
  resumeWebhook,
  type Webhook,
  type WebhookSummary,
} from "../../store/events.js";
import { action, type CliContext } from "../context.js";
import { checkWebhookAddress } from "../../events/webhook-address.js";

const BANK_ID = /^[A-Za-z0-9]{2,10}$/;

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new UserError(`a webhook URL must be http or https, not ${parsed.protocol}`);
  // fetch refuses such a URL, so it could never be delivered; and the password would be listed.
  if (parsed.username || parsed.password)
    throw new UserError(
      `a webhook URL must not carry credentials (${withoutCredentials(url)}): the receiver checks the ` +
        "signature instead, or put a token in the path or query",
    );
}

/** A URL as listed: its user and password (kept by a webhook added before they were refused) masked. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "***";
    u.password = "";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}

function parseBanks(list: string | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  const ids = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.filter((id) => !BANK_ID.test(id));
  if (ids.length === 0 || bad.length) throw new UserError(`--banks takes bank ids separated by commas (${list})`);
  // A webhook for a bank that does not exist would be stored as active and never called.
  const known = new Set(knownBankIds());
  const unknown = ids.map((id) => id.toUpperCase()).filter((id) => !known.has(id));
  if (unknown.length)
    throw new UserError(
      `unknown bank${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (known: ${[...known].join(", ")})`,
    );
  return ids.map((id) => id.toUpperCase());
}

type WebhooksContext = CliContext & { close(): Promise<void> };

/** What `add` prints: the new webhook and its secret, shown this once. */
function addedText(hook: Webhook & { secret: string }): string {
  return [
    `id:     ${hook.id}`,
    `url:    ${hook.url}`,
    `banks:  ${hook.banks?.join(",") ?? "all"}`,
    `secret: ${hook.secret}`,
    "",
    "The secret is shown this once. Verify each request with it (webhook-id, webhook-timestamp,",
    "webhook-signature; the standardwebhooks package does it).",
  ].join("\n");
}

/** The webhooks as a table (one padded column each, the URL last), then one line per paused webhook. */
function webhookTable(shown: WebhookSummary[]): string {
  const rows = shown.map((h) => [
    h.id,
    h.pausedAt ? "paused" : "active",
    h.banks?.join(",") ?? "all",
    h.lastStatus ? `${h.lastStatus}${h.lastResponseStatus ? ` ${h.lastResponseStatus}` : ""}` : "-",
    String(h.delivered),
    String(h.failures),
    String(h.pending),
    h.url,
  ]);
  const head = ["ID", "STATE", "BANKS", "LAST", "DELIVERED", "FAILURES", "PENDING", "URL"];
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((v, i) => (i < r.length - 1 ? v.padEnd(widths[i]!) : v)).join("  ");
  const paused = shown.filter((h) => h.pausedAt).map((h) => `${h.id} paused ${h.pausedAt}: ${h.pausedReason}`);
  return [line(head), ...rows.map(line), ...paused].join("\n");
}

function registerAdd(webhooks: Command, ctx: WebhooksContext): void {
  webhooks
    .command("add")
    .description("add a webhook and print its signing secret (once)")
    .argument("<url>", "where to POST the events")
    .option("--banks <ids>", "only these banks, comma-separated (default: every bank)")
    .option("--json", "print {id, url, banks, secret} as JSON")
    .option("--allow-private", "accept a loopback or private address (a receiver on this box or network)")
    .action(
      action(ctx, async (url: string, options: { banks?: string; json?: boolean; allowPrivate?: boolean }) => {
        checkUrl(url);
        await checkWebhookAddress(new URL(url), options.allowPrivate === true);
        const hook = await addWebhook(await ctx.store(), { url, banks: parseBanks(options.banks) });
        ctx.log().info({ event: "webhook.added", webhookId: hook.id, banks: hook.banks }, "webhook added");
        if (options.json)
          ctx.print(JSON.stringify({ id: hook.id, url: hook.url, banks: hook.banks ?? null, secret: hook.secret }));
        else ctx.print(addedText(hook));
      }),
    );
}

function registerList(webhooks: Command, ctx: WebhooksContext): void {
  webhooks
    .command("list")
    .description("list the webhooks with their last delivery and failures (never their secrets)")
    .option("--json", "as JSON")
    .action(
      action(ctx, async (options: { json?: boolean }) => {
        const all = await listWebhooks(await ctx.store());
        const shown = all.map((h) => ({ ...h, url: withoutCredentials(h.url) }));
        if (options.json) ctx.print(JSON.stringify(shown));
        else if (shown.length === 0) ctx.print("no webhooks; add one with `exrates webhooks add <url>`");
        else ctx.print(webhookTable(shown));
      }),
    );
}

function registerRemoveResume(webhooks: Command, ctx: WebhooksContext): void {
  webhooks
    .command("remove")
    .description("remove a webhook and its delivery log")
    .argument("<id>")
    .action(
      action(ctx, async (id: string) => {
        if (!(await removeWebhook(await ctx.store(), id))) throw new UserError(`no webhook ${id}`);
        ctx.print(`removed ${id}`);
      }),
    );

  webhooks
    .command("resume")
    .description("resume a paused webhook (its pending deliveries are sent at once)")
    .argument("<id>")
    .action(
      action(ctx, async (id: string) => {
        if (!(await resumeWebhook(await ctx.store(), id))) throw new UserError(`no webhook ${id}`);
        ctx.print(`resumed ${id}`);
      }),
    );
}

function registerTest(webhooks: Command, ctx: WebhooksContext): void {
  webhooks
    .command("test")
    .description("POST a signed webhook.test message now and print the receiver's answer")
    .argument("<id>")
    .action(
      action(ctx, async (id: string) => {
        const hook = await getWebhook(await ctx.store(), id);
        if (!hook) throw new UserError(`no webhook ${id}`);
        const at = new Date();
        const body = JSON.stringify({ type: "webhook.test", timestamp: at.toISOString(), data: { webhookId: id } });
        const result = await sendSigned({
          url: hook.url,
          secret: hook.secret,
          id: `msg_test_${at.getTime()}`,
          body,
          at,
        });
        if (!result.ok) throw new UserError(`${id}: ${result.error}`);
        ctx.print(`${id}: delivered (${result.status})`);
      }),
    );
}

export function registerWebhooks(program: Command, ctx: WebhooksContext): void {
  const webhooks = program
    .command("webhooks")
    .description("receivers of a signed POST for each publication of new rates (delivered by `exrates start`)");
  registerAdd(webhooks, ctx);
  registerList(webhooks, ctx);
  registerRemoveResume(webhooks, ctx);
  registerTest(webhooks, ctx);
}
