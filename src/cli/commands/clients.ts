// `exrates clients create <name> [--scope S] [--json] | list | reset-secret <id> | disable <id> | enable <id> |
// delete <id> [--yes]`
import { createInterface } from "node:readline/promises";

import type { Command } from "commander";

import {
  type ClientRecord,
  createClient,
  deleteClient,
  disableClient,
  enableClient,
  listClients,
  resetSecret,
} from "../../auth/clients.js";
import { UserError } from "../../errors.js";
import { action, type CliContext } from "../context.js";

/**
 * Asks on the terminal whether to delete the client (y or yes). Without a terminal on stdin nothing can
 * be asked: refused, naming --yes.
 */
async function confirmed(id: string): Promise<boolean> {
  if (!process.stdin.isTTY)
    throw new UserError(
      `clients delete ${id}: stdin is not a terminal, so it cannot ask; add --yes to delete the client and end its tokens`,
    );
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`delete client ${id}? Its tokens stop working at once. [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

type ClientsContext = CliContext & { close(): Promise<void> };

type Credentials = { clientId: string; clientSecret: string; scope: string };

/** A new secret, shown once: JSON for scripts, or the friendly text. */
function credentials(c: Credentials, json?: boolean): string {
  if (json) return JSON.stringify({ client_id: c.clientId, client_secret: c.clientSecret, scope: c.scope });
  return [
    `client_id:     ${c.clientId}`,
    `client_secret: ${c.clientSecret}`,
    `scope:         ${c.scope}`,
    "",
    "The secret is shown this once; it is stored only as a hash. Keep it out of front-end code.",
  ].join("\n");
}

/** The clients as a table: CLIENT_ID, STATE, SCOPE padded to their widest value, then CREATED. */
function clientTable(all: ClientRecord[]): string {
  const rows = all.map((c) => [c.clientId, c.enabled ? "enabled" : "disabled", c.scopes.join(" "), c.createdAt]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((r) => r[i]!.length), ["CLIENT_ID", "STATE", "SCOPE"][i]!.length),
  );
  const line = (r: string[]) => r.map((v, i) => (i < 3 ? v.padEnd(widths[i]!) : v)).join("  ");
  return [line(["CLIENT_ID", "STATE", "SCOPE", "CREATED"]), ...rows.map(line)].join("\n");
}

/** The clients as JSON (never their secrets). */
function clientJson(all: ClientRecord[]): string {
  return JSON.stringify(
    all.map((c) => ({
      client_id: c.clientId,
      scope: c.scopes.join(" "),
      enabled: c.enabled,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    })),
  );
}

function registerCreate(clients: Command, ctx: ClientsContext): void {
  clients
    .command("create")
    .description("create a client and print its secret (once)")
    .argument("<name>", "the client_id: letters, digits, '.', '_', '-'")
    .option("--scope <scope>", "granted scopes, space-separated (default: the API scope)")
    .option("--json", "print {client_id, client_secret, scope} as JSON")
    .action(
      action(ctx, async (name: string, options: { scope?: string; json?: boolean }) => {
        const created = await createClient(await ctx.store(), {
          clientId: name,
          scope: options.scope ?? ctx.config().scope,
        });
        ctx.log().info({ event: "client.created", clientId: created.clientId, scope: created.scope }, "client created");
        ctx.print(credentials(created, options.json));
        const apiScope = ctx.config().scope;
        if (!created.scope.split(" ").includes(apiScope))
          process.stderr.write(
            `exrates: warning: client ${created.clientId} has the scopes "${created.scope}" but not ${apiScope} ` +
              `(EXRATES_SCOPE): its tokens cannot read the API; add it with --scope "${apiScope} ${created.scope}"\n`,
          );
      }),
    );
}

function registerList(clients: Command, ctx: ClientsContext): void {
  clients
    .command("list")
    .description("list the clients (never their secrets)")
    .option("--json", "as JSON")
    .action(
      action(ctx, async (options: { json?: boolean }) => {
        const all = await listClients(await ctx.store({ readonly: true }));
        if (options.json) ctx.print(clientJson(all));
        else if (all.length === 0) ctx.print("no clients; create one with `exrates clients create <name>`");
        else ctx.print(clientTable(all));
      }),
    );
}

function registerResetSecret(clients: Command, ctx: ClientsContext): void {
  clients
    .command("reset-secret")
    .description("issue a new secret; tokens issued before stop working at once")
    .argument("<id>", "client_id")
    .option("--json", "print {client_id, client_secret, scope} as JSON")
    .action(
      action(ctx, async (id: string, options: { json?: boolean }) => {
        const reset = await resetSecret(await ctx.store(), id);
        ctx.log().info({ event: "client.reset", clientId: id }, "client secret reset");
        ctx.print(credentials(reset, options.json));
      }),
    );
}

function registerDisableEnable(clients: Command, ctx: ClientsContext): void {
  clients
    .command("disable")
    .description("refuse the client new tokens and end its current ones at once")
    .argument("<id>", "client_id")
    .action(
      action(ctx, async (id: string) => {
        await disableClient(await ctx.store(), id);
        ctx.log().info({ event: "client.disabled", clientId: id }, "client disabled");
        ctx.print(`client ${id} disabled; its tokens no longer work`);
      }),
    );

  clients
    .command("enable")
    .description("let a disabled client get tokens again (tokens issued before it was disabled stay refused)")
    .argument("<id>", "client_id")
    .action(
      action(ctx, async (id: string) => {
        await enableClient(await ctx.store(), id);
        ctx.log().info({ event: "client.enabled", clientId: id }, "client enabled");
        ctx.print(`client ${id} enabled; it can get tokens again`);
      }),
    );
}

function registerDelete(clients: Command, ctx: ClientsContext): void {
  clients
    .command("delete")
    .description("delete the client; its tokens no longer work (asks first; --yes does not)")
    .argument("<id>", "client_id")
    .option("--yes", "delete without asking (needed when stdin is not a terminal)")
    .action(
      action(ctx, async (id: string, options: { yes?: boolean }) => {
        const store = await ctx.store();
        if (!(await listClients(store)).some((c) => c.clientId === id)) throw new UserError(`no client "${id}"`);
        if (!options.yes && !(await confirmed(id))) {
          ctx.print(`client ${id} not deleted`);
          return;
        }
        await deleteClient(store, id);
        ctx.log().info({ event: "client.deleted", clientId: id }, "client deleted");
        ctx.print(`client ${id} deleted`);
      }),
    );
}

export function registerClients(program: Command, ctx: ClientsContext): void {
  const clients = program.command("clients").description("clients of the embedded SSO (service accounts)");
  registerCreate(clients, ctx);
  registerList(clients, ctx);
  registerResetSecret(clients, ctx);
  registerDisableEnable(clients, ctx);
  registerDelete(clients, ctx);
}
