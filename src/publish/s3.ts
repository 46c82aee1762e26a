// An S3-compatible bucket under a prefix, as the publisher and the server use it: the location from
// EXRATES_PUBLISH_URL (s3://bucket/prefix), a client from the standard AWS variables, and the few
// object operations the tree needs. Every failure becomes one ObjectStoreError naming the bucket, the
// key and the store's error code; credentials never reach a message.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";

import { UserError } from "../errors.js";
import { redactSecrets, registerSecret } from "../secrets.js";
import { parseS3Url, s3UrlOf, type S3Location } from "./s3-url.js";

export { parseS3Url, s3UrlOf, type S3Location };

/**
 * A client from the standard AWS variables: AWS_REGION (or AWS_DEFAULT_REGION; us-east-1 when
 * neither), AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for an S3-compatible store (then path-style
 * addressing, which such stores expect, and checksums only where S3 requires them, since not every
 * store understands the SDK's newer default ones), AWS_MAX_ATTEMPTS, and credentials from the SDK's
 * usual chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, a profile, an instance role).
 */
export function s3ClientFor(env: Readonly<Record<string, string | undefined>> = process.env): S3Client {
  // The secret halves are masked wherever text leaves the process (src/secrets.ts).
  registerSecret(env.AWS_SECRET_ACCESS_KEY);
  registerSecret(env.AWS_SESSION_TOKEN);
  // The SDK warns once that its releases from 2027 need Node 22; the version locked here runs on 20,
  // and the warning would only clutter every command's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const config: S3ClientConfig = {
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    // On AWS, a bucket in another region than the one configured is still found (one extra request).
    followRegionRedirects: true,
    // Without these a connection that never answers holds its caller for ever (a server would stop
    // following the pointer): connecting may take 10 s, and a socket may stay silent 2 minutes.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
  };
  if (endpoint) {
    if (!/^https?:\/\/[^/]/.test(endpoint)) throw new UserError(`AWS_ENDPOINT_URL "${endpoint}" is not an http(s) URL`);
    Object.assign(config, {
      endpoint,
      forcePathStyle: true,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }
  const attempts = Number(env.AWS_MAX_ATTEMPTS);
  if (Number.isInteger(attempts) && attempts > 0) config.maxAttempts = attempts;
  if (env !== process.env && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    config.credentials = {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      sessionToken: env.AWS_SESSION_TOKEN,
    };
  }
  return new S3Client(config);
}

/** What the operator can do about a store's error code. */
const HINTS: Record<string, string> = {
  NoSuchBucket: "the bucket does not exist: create it, or fix EXRATES_PUBLISH_URL",
  NotFound: "not found (a missing bucket answers HEAD so): create it, or fix EXRATES_PUBLISH_URL",
  AccessDenied: "access denied: check the credentials' permissions on the bucket",
  Forbidden: "access denied: check the credentials' permissions on the bucket",
  InvalidAccessKeyId: "the access key is not known to the store: check AWS_ACCESS_KEY_ID",
  SignatureDoesNotMatch: "the store refused the signature: check AWS_SECRET_ACCESS_KEY",
  PermanentRedirect: "the bucket is in another region: set AWS_REGION to it",
  ECONNREFUSED: "the store refused the connection: check AWS_ENDPOINT_URL",
  ENOTFOUND: "the store's host does not resolve: check AWS_ENDPOINT_URL",
};

/** A failed bucket operation: names the operation, the bucket and key, and the store's error code. */
export class ObjectStoreError extends UserError {
  override name = "ObjectStoreError";
  override readonly code: string = "EXRATES_S3";
  constructor(
    readonly operation: string,
    readonly bucket: string,
    readonly key: string,
    /** The store's error code (NoSuchBucket, AccessDenied...) or a network error's. */
    readonly storeCode: string,
    readonly status: number | undefined,
  ) {
    const hint = HINTS[storeCode];
    super(
      redactSecrets(
        `${operation} s3://${bucket}${key ? `/${key}` : ""} failed: ${storeCode}${status ? ` (HTTP ${status})` : ""}${hint ? `; ${hint}` : ""}`,
      ),
    );
  }
}

/** The code of an SDK or network error, never its message (which may carry a server's echo). */
function codeOf(error: unknown): { code: string; status: number | undefined } {
  const e = error as {
    name?: string;
    Code?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
    cause?: unknown;
    errors?: unknown[];
  };
  const status = e.$metadata?.httpStatusCode;
  // Network errors arrive as Node's (ECONNREFUSED...), sometimes inside an AggregateError.
  const nodeCode = e.code ?? (e.errors?.[0] as { code?: string } | undefined)?.code;
  if (typeof nodeCode === "string" && /^E[A-Z]+$/.test(nodeCode)) return { code: nodeCode, status };
  const code = e.Code ?? e.name ?? "UnknownError";
  // A HEAD answer has no body, so no code: name the status the way S3 would.
  if (code === "UnknownError" || code === "Unknown") {
    if (status === 404) return { code: "NotFound", status };
    if (status === 403) return { code: "Forbidden", status };
  }
  return { code, status };
}

export const isMissing = (error: unknown) => {
  const { code, status } = codeOf(error);
  return code === "NoSuchKey" || (status === 404 && code !== "NoSuchBucket");
};

/** A bucket under a prefix: keys given to its methods are relative to the prefix. */
export class ObjectStore {
  constructor(
    readonly location: S3Location,
    readonly client: S3Client,
  ) {}

  static fromUrl(url: string, env?: Readonly<Record<string, string | undefined>>): ObjectStore {
    return new ObjectStore(parseS3Url(url), s3ClientFor(env));
  }

  get url(): string {
    return s3UrlOf(this.location);
  }

  /** The full key of a key relative to the prefix. */
  key(relative: string): string {
    return this.location.prefix ? `${this.location.prefix}/${relative}` : relative;
  }

  private fail(operation: string, relative: string, error: unknown): never {
    const { code, status } = codeOf(error);
    const key = relative === "" ? this.location.prefix : this.key(relative);
    throw new ObjectStoreError(operation, this.location.bucket, key, code, status);
  }

  /**
   * Fails with a clear error when the bucket is missing or these credentials cannot read it: a GET of
   * `probe` (a missing object is fine), which every store answers with its own error code.
   */
  async checkBucket(probe: string): Promise<void> {
    await this.get(probe);
  }

  /**
   * An object's bytes, or undefined when there is no such object. With `timeoutMs`, a request not
   * answered whole by then fails (small objects read often, such as the pointer).
   */
  async get(relative: string, options: { timeoutMs?: number } = {}): Promise<Buffer | undefined> {
    try {
      const abortSignal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(relative) }),
        { abortSignal },
      );
      if (!answer.Body) return Buffer.alloc(0);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      this.fail("GET", relative, error);
    }
  }

  async put(relative: string, body: Buffer | string, contentType: string): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: this.key(relative),
          Body: body,
          ContentType: contentType,
          ContentLength: Buffer.byteLength(body),
        }),
      );
    } catch (error) {
      this.fail("PUT", relative, error);
    }
  }

  async delete(relative: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.key(relative) }));
    } catch (error) {
      if (!isMissing(error)) this.fail("DELETE", relative, error);
    }
  }

  /** Every object under a relative prefix, with its key relative to the store's prefix. */
  async list(relativePrefix: string): Promise<Array<{ key: string; lastModified: Date | undefined }>> {
    const all: Array<{ key: string; lastModified: Date | undefined }> = [];
    const strip = this.location.prefix ? this.location.prefix.length + 1 : 0;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: this.key(relativePrefix),
            ContinuationToken: token,
          }),
        );
      } catch (error) {
        this.fail("LIST", relativePrefix, error);
      }
      for (const o of page.Contents ?? [])
        if (o.Key) all.push({ key: o.Key.slice(strip), lastModified: o.LastModified });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return all;
  }
}

/** Runs `fn` over `items`, at most `limit` at a time; the first failure is thrown once all settle. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
