// EXRATES_PUBLISH_URL (s3://bucket/prefix) as a bucket and a prefix. Apart from the S3 client so that
// the configuration can check the URL without loading the AWS SDK.
import { UserError } from "../errors.js";

export interface S3Location {
  bucket: string;
  /** Without slashes at either end; "" for the bucket's root. */
  prefix: string;
}

/** S3's rules for a bucket name (the DNS-compatible ones every S3-compatible store accepts). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** s3://bucket/prefix as a location; a clear error for anything else. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(url);
  if (!m) throw new UserError(`EXRATES_PUBLISH_URL "${url}" is not an s3://bucket/prefix URL`);
  const bucket = m[1]!;
  if (!BUCKET.test(bucket) || bucket.includes(".."))
    throw new UserError(
      `EXRATES_PUBLISH_URL "${url}": "${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, '.' and '-')`,
    );
  const prefix = (m[2] ?? "").replace(/\/+$/, "");
  const segments = prefix === "" ? [] : prefix.split("/");
  if (segments.some((s) => s === "" || s === "." || s === ".."))
    throw new UserError(`EXRATES_PUBLISH_URL "${url}": the prefix may not hold empty, "." or ".." segments`);
  return { bucket, prefix };
}

export const s3UrlOf = (location: S3Location) =>
  `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ""}`;
