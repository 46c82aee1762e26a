// Where `exrates mcp` reads from: the API's base URL (EXRATES_API_URL, else this installation's public
// URL), its token endpoint (EXRATES_TOKEN_URL, else the embedded realm's, or the external issuer's), and
// for stdio the client credentials (EXRATES_CLIENT_ID, EXRATES_CLIENT_SECRET: the secret is masked in
// every log line, as every EXRATES_*_SECRET is).
import type { Config } from "../config.js";
import { UserError } from "../errors.js";

export interface McpSettings {
  apiUrl: string;
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  scope: string;
  realm: string;
}

export function mcpSettings(config: Config, env: Readonly<Record<string, string | undefined>>): McpSettings {
  const apiUrl = (env.EXRATES_API_URL || config.publicUrl).replace(/\/+$/, "");
  try {
    const url = new URL(apiUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
  } catch {
    throw new UserError(`EXRATES_API_URL "${apiUrl}" is not an http:// or https:// URL`);
  }
  const issuer = config.oidcIssuer ?? `${apiUrl}/auth/realms/${config.realm}`;
  return {
    apiUrl,
    tokenUrl: env.EXRATES_TOKEN_URL || `${issuer}/protocol/openid-connect/token`,
    clientId: env.EXRATES_CLIENT_ID || undefined,
    clientSecret: env.EXRATES_CLIENT_SECRET || undefined,
    scope: config.scope,
    realm: config.realm,
  };
}
