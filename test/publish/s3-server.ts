// Test support: an S3-compatible server (s3rver, files in a temporary directory) on 127.0.0.1, behind
// a small proxy that records every request and can cut PUTs off after a number of them (an upload
// interrupted half way: the connection is reset, as when the store goes away).
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
  allowMismatchedSignatures?: boolean;
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)("@20minutes/s3rver") as S3rverClass;

export interface SeenS3Request {
  method: string;
  /** Path with the query string, bucket first (path-style). */
  path: string;
  status: number;
}

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The variables a process needs to use the bucket (credentials s3rver accepts). */
  env: Record<string, string>;
  requests: SeenS3Request[];
  /** Object keys PUT since the last reset, in order (successful ones). */
  puts(): string[];
  reset(): void;
  /** From now on, every PUT after `n` more succeeded ones has its connection reset; undefined: none. */
  failPutsAfter(n: number | undefined): void;
  close(): Promise<void>;
}

export const S3_SECRET = "S3RVER";

export async function startS3Server(bucket = "exrates-test"): Promise<S3TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "exrates-s3-"));
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: !process.env.S3_DEBUG,
    directory: dir,
    configureBuckets: [{ name: bucket }],
    // s3rver signs a bucket-level request's path without the trailing slash the AWS SDK v3 signs
    // ("/bucket" vs "/bucket/"), so it would refuse every LIST. The signature is still computed and
    // compared (a mismatch is only logged); an unknown access key is still refused.
    allowMismatchedSignatures: true,
  });
  const { port: s3Port } = await s3.run();
  const requests: SeenS3Request[] = [];
  let putsLeft: number | undefined;

  const proxy: Server = createServer((req, res) => {
    const seen: SeenS3Request = { method: req.method ?? "", path: req.url ?? "", status: 0 };
    requests.push(seen);
    if (req.method === "PUT" && putsLeft !== undefined) {
      if (putsLeft <= 0) {
        seen.status = -1;
        req.socket.destroy();
        return;
      }
      putsLeft--;
    }
    const upstream = request(
      { host: "127.0.0.1", port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        seen.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: S3_SECRET,
      AWS_REGION: "us-east-1",
      AWS_MAX_ATTEMPTS: "1",
    },
    requests,
    puts: () =>
      requests
        .filter((r) => r.method === "PUT" && r.status === 200)
        .map((r) => decodeURIComponent(r.path.split("?")[0]!.slice(bucket.length + 2))),
    reset: () => void requests.splice(0),
    failPutsAfter: (n) => void (putsLeft = n),
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
