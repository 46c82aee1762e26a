// Access tokens for the client: the client credentials grant against the realm's token endpoint (or a
// function of the caller's), cached and renewed at 80% of `expires_in`, one grant at a time however
// many calls wait for it. The secret and the token live in private fields: they are in no property,
// no message, no debug line (util.inspect and JSON.stringify do not show `#` fields).
import { problemOf, type ExratesError } from "./errors.js";

/** What a token provider gives: the token alone (used until a 401), or with its lifetime. */
export type ProvidedToken = string | { accessToken: string; expiresIn?: number };

/** The caller's own way to get a token (another OAuth library, a vault); `renew` after a 401. */
export type TokenProvider = (request: { renew: boolean }) => ProvidedToken | Promise<ProvidedToken>;

export interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Sends one request, retrying a 429/503 as the client does (./http.ts). */
  post: (url: string, body: URLSearchParams) => Promise<{ status: number; json: unknown; error?: ExratesError }>;
  now: () => number;
  onGrant?: (expiresIn: number) => void;
}

/** A token is renewed once this share of its lifetime has passed. */
export const RENEW_AT = 0.8;

interface Held {
  token: string;
  /** Epoch ms after which the next call gets a new token (undefined: until the API refuses it). */
  renewAt: number | undefined;
}

export interface TokenSource {
  /** A token to send; a new one when the held one is past 80% of its life or was refused. */
  get(): Promise<string>;
  /** The API refused `token` (401): the next get() asks for another, once, however many saw the 401. */
  refused(token: string): void;
}

/** The realm's client credentials grant. */
export function clientCredentials(options: TokenSourceOptions): TokenSource {
  const secret = options.clientSecret;
  const grant = async (): Promise<Held> => {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: secret,
      scope: options.scope,
    });
    const answer = await options.post(options.tokenUrl, form);
    if (answer.error) throw answer.error;
    const body = answer.json as { access_token?: unknown; expires_in?: unknown };
    if (typeof body?.access_token !== "string" || body.access_token === "")
      throw problemOf(
        answer.status,
        "Bad token answer",
        "text/plain",
        "the token endpoint's answer has no access_token",
      );
    const expiresIn = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : undefined;
    if (expiresIn !== undefined) options.onGrant?.(expiresIn);
    return { token: body.access_token, renewAt: renewTime(options.now(), expiresIn) };
  };
  return new CachedTokens(grant, options.now);
}

/** The caller's provider, behind the same cache (a provider that says `expiresIn` is asked again at 80%). */
export function providedTokens(provider: TokenProvider, now: () => number): TokenSource {
  let renew = false;
  return new CachedTokens(
    async () => {
      const given = await provider({ renew });
      renew = false;
      const { accessToken, expiresIn } =
        typeof given === "string" ? { accessToken: given, expiresIn: undefined } : given;
      return { token: accessToken, renewAt: renewTime(now(), expiresIn) };
    },
    now,
    () => (renew = true),
  );
}

function renewTime(at: number, expiresIn: number | undefined): number | undefined {
  return expiresIn === undefined ? undefined : at + expiresIn * RENEW_AT * 1000;
}

class CachedTokens implements TokenSource {
  #held: Held | undefined;
  #pending: Promise<Held> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<Held>,
    private readonly now: () => number,
    private readonly onRefused: () => void = () => undefined,
  ) {}

  get(): Promise<string> {
    const held = this.#held;
    if (held && (held.renewAt === undefined || this.now() < held.renewAt)) return Promise.resolve(held.token);
    // Single flight: every caller arriving while a grant is under way waits for that one.
    this.#pending ??= this.fetchToken().then(
      (fresh) => {
        this.#held = fresh;
        this.#pending = undefined;
        return fresh;
      },
      (error: unknown) => {
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending.then((h) => h.token);
  }

  refused(token: string): void {
    // Only the token that was refused is dropped: a 401 for an older token must not cost a new grant.
    if (this.#held?.token !== token) return;
    this.#held = undefined;
    this.onRefused();
  }
}
