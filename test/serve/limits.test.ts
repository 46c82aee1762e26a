// The server's connection limits: a socket that never sends a byte, or stops halfway through a request,
// is closed (the idle limit runs from accept) while a quiet event stream is left open, connections beyond the cap are closed at accept with one log line, a body over the limit
// closes the connection instead of being read, and a request with two Host headers is refused.
import { connect, type Socket } from "node:net";
import { Writable } from "node:stream";

import { describe, expect, it } from "vitest";

import { createLogger } from "../../src/log.js";
import { startHarness } from "./support.js";

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Resolves with what the server sent once it has closed the connection. */
function closed(socket: Socket): Promise<string> {
  let got = "";
  socket.on("data", (c: Buffer) => (got += c.toString("latin1")));
  socket.on("error", () => undefined); // a reset after the answer is still a close
  return new Promise((resolve) => socket.once("close", () => resolve(got)));
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

describe("connection limits", () => {
  it("closes connections that never send a byte (the idle timeout runs from accept)", async () => {
    const h = await startHarness({ server: { limits: { idleMs: 200 } } });
    try {
      const sockets = await Promise.all(Array.from({ length: 20 }, () => open(h.url)));
      const answers = await Promise.all(sockets.map(closed));
      expect(answers.every((a) => a === "")).toBe(true);
      // The server still answers.
      expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("closes a connection quiet halfway through its request, long before the headers' 20 s deadline", async () => {
    const h = await startHarness({ server: { limits: { idleMs: 200 } } });
    try {
      const socket = await open(h.url);
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
      const started = Date.now();
      expect(await closed(socket)).toBe("");
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await h.close();
    }
  });

  it("leaves an event stream open while it is quiet for longer than the idle limit", async () => {
    const h = await startHarness({ server: { limits: { idleMs: 100 } } });
    const socket = await open(h.url);
    try {
      let got = "";
      let isClosed = false;
      socket.on("data", (c: Buffer) => (got += c.toString("latin1")));
      socket.on("close", () => (isClosed = true));
      socket.write(`GET /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${await h.token()}\r\n\r\n`);
      await until(() => Promise.resolve(got.includes("retry: 3000")));
      expect(got).toMatch(/^HTTP\/1\.1 200 /);
      // Eight idle limits of silence (the sweep runs every quarter of one).
      await new Promise((r) => setTimeout(r, 800));
      expect(isClosed).toBe(false);
    } finally {
      socket.destroy();
      await h.close();
    }
  });

  it("caps concurrent connections with one clear log line, and serves again once they leave", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    const h = await startHarness({
      server: { log: createLogger("info", false, sink), limits: { maxConnections: 4, idleMs: 60_000 } },
    });
    const connections = () =>
      new Promise<boolean>((resolve) => h.server.server.getConnections((_e, n) => resolve(n === 4)));
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < 4; i++) idle.push(await open(h.url));
      await until(connections);
      for (let i = 0; i < 10; i++) {
        const extra = await open(h.url).catch(() => undefined);
        if (extra) {
          extra.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
          expect(await closed(extra)).toBe("");
        }
      }
      const full = lines.filter((l) => l.includes('"event":"connections.full"'));
      expect(full).toHaveLength(1);
      expect(full[0]).toContain("4 connections are open");
      for (const s of idle) s.destroy();
      await until(() => new Promise<boolean>((resolve) => h.server.server.getConnections((_e, n) => resolve(n === 0))));
      expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    } finally {
      for (const s of idle) s.destroy();
      await h.close();
    }
    const summary = lines.filter((l) => l.includes('"event":"connections.full"'));
    expect(summary).toHaveLength(2);
    expect(JSON.parse(summary[1]!)).toMatchObject({ repeated: 9 });
  });

  it.each([
    ["the token endpoint", "/auth/realms/exrates/protocol/openid-connect/token", "413"],
    ["an API path", "/v1/banks", "405"],
  ])(
    "a 100 MB body announced to %s is answered and the connection closed, not drained",
    async (_name, path, status) => {
      const h = await startHarness();
      try {
        const socket = await open(h.url);
        const done = closed(socket);
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\n`,
        );
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!socket.destroyed && sent < 100_000_000) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once("drain", pump);
          }
        };
        pump();
        const answer = await done;
        expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(answer.toLowerCase()).toContain("connection: close");
        expect(sent).toBeLessThan(100_000_000);
      } finally {
        await h.close();
      }
    },
  );

  it("a chunked body past 16 KB to the token endpoint gets 413 and the connection closes", async () => {
    const h = await startHarness();
    try {
      const socket = await open(h.url);
      const done = closed(socket);
      socket.write(
        "POST /auth/realms/exrates/protocol/openid-connect/token HTTP/1.1\r\nHost: x\r\n" +
          "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      const piece = "a".repeat(8192);
      for (let i = 0; i < 4; i++) socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      const answer = await done;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"error":"invalid_request"');
    } finally {
      await h.close();
    }
  });
});

describe("request hygiene", () => {
  it("refuses a request with two Host headers (400) and closes the connection", async () => {
    const h = await startHarness();
    try {
      const socket = await open(h.url);
      const done = closed(socket);
      socket.write("GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n");
      const answer = await done;
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain("more than one Host header");
      // One Host header is fine.
      const ok = await open(h.url);
      const okDone = closed(ok);
      ok.end("GET /healthz HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n");
      expect(await okDone).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await h.close();
    }
  });

  it("checks thousands of parameters for duplicates in one pass: none is fine, one is found", async () => {
    const h = await startHarness();
    try {
      const base = {
        grant_type: "client_credentials",
        client_id: h.client.id,
        client_secret: h.client.secret,
        scope: h.config.scope,
      };
      const many = Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join("&");
      const post = (extra: string) =>
        fetch(h.tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `${new URLSearchParams(base).toString()}&${extra}`,
        });
      expect((await post(many)).status).toBe(200);
      const dup = await post(`${many}&p7=2`);
      expect(dup.status).toBe(400);
      expect(await dup.json()).toEqual({ error: "invalid_request", error_description: "duplicated parameter" });
    } finally {
      await h.close();
    }
  });
});

/** A connection to the server from a given loopback address (127.0.0.0/8 is all the machine's own). */
function openFrom(url: string, localAddress: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** A GET over a fresh connection from a given loopback address: the status line, or "" when closed unanswered. */
function statusFrom(url: string, localAddress: string, path: string, headers = ""): Promise<string> {
  return openFrom(url, localAddress).then((socket) => {
    const got = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (c: Buffer) => {
        text += c.toString("latin1");
        if (text.includes("\r\n")) resolve(text.split("\r\n")[0]!);
      });
      socket.on("error", () => resolve(text));
      socket.once("close", () => resolve(text.split("\r\n")[0] ?? ""));
    });
    socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n${headers}\r\n`);
    return got.finally(() => socket.destroy());
  });
}

describe("one client cannot take every connection", () => {
  it("caps connections per address and keeps the rest for other addresses", async () => {
    const h = await startHarness({ server: { limits: { maxConnections: 40, perAddress: 5 } } });
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 5; i++) held.push(await openFrom(h.url, "127.0.0.2"));
      // The sixth from that address is closed at accept, unanswered.
      expect(await statusFrom(h.url, "127.0.0.2", "/healthz")).toBe("");
      // Another address is served at once.
      expect(await statusFrom(h.url, "127.0.0.3", "/healthz")).toBe("HTTP/1.1 200 OK");
      // Once one of them leaves, the first address is served again.
      held.pop()!.destroy();
      await until(async () => (await statusFrom(h.url, "127.0.0.2", "/healthz")) === "HTTP/1.1 200 OK");
    } finally {
      for (const s of held) s.destroy();
      await h.close();
    }
  });

  it("caps event streams per token and per address with 429, and frees the slot when a stream ends", async () => {
    const h = await startHarness({ server: { limits: { streamsPerToken: 2, streamsPerAddress: 3 } } });
    const streams: Socket[] = [];
    try {
      const [a, b] = [await h.token(), await h.token()];
      const stream = async (from: string, token: string) => {
        const socket = await openFrom(h.url, from);
        streams.push(socket);
        const status = new Promise<string>((resolve) => {
          let text = "";
          socket.on("data", (c: Buffer) => {
            text += c.toString("latin1");
            if (text.includes("\r\n")) resolve(text.split("\r\n")[0]!);
          });
          socket.once("close", () => resolve(text));
        });
        socket.write(`GET /v1/events HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\n\r\n`);
        return status;
      };
      expect(await stream("127.0.0.4", a)).toBe("HTTP/1.1 200 OK");
      expect(await stream("127.0.0.5", a)).toBe("HTTP/1.1 200 OK");
      expect(await stream("127.0.0.6", a)).toBe("HTTP/1.1 429 Too Many Requests");
      // Another token: served, until its address holds three streams.
      expect(await stream("127.0.0.4", b)).toBe("HTTP/1.1 200 OK");
      expect(await stream("127.0.0.4", b)).toBe("HTTP/1.1 200 OK");
      expect(await stream("127.0.0.4", b)).toBe("HTTP/1.1 429 Too Many Requests");
      streams[0]!.destroy();
      await until(async () => (await stream("127.0.0.6", a)) === "HTTP/1.1 200 OK");
    } finally {
      for (const s of streams) s.destroy();
      await h.close();
    }
  });
});
