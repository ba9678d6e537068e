/**
 * A TCP proxy in front of a test PostgreSQL that can cut a connection at a chosen moment of a
 * transaction (issue 27 E): after forwarding its COMMIT (committed, its answer lost), or instead of
 * forwarding the marker a bulk write sends last (never committed) — and then refuse new connections
 * for a while, as a database that is restarting: every connection is closed then. Only a
 * transaction that wrote a marker (store/postgres/outcome.ts) sets the moment; until then every
 * connection (the log, the keys, the copy) passes.
 */
import type { Socket, TCPSocketListener } from "bun";

export type CutAt = "after-commit" | "before-marker";

export interface PgProxy {
  url: string;
  /** The next marked transaction is cut there; new connections are refused for `refuseMs` after. */
  arm(at: CutAt, refuseMs: number): void;
  /** Resolves when an armed cut has happened. */
  readonly cut: Promise<void>;
  stop(): void;
}

const MARKER = Buffer.from("INSERT INTO meta (key, value)");
const COMMIT = Buffer.from("COMMIT");

interface Pair {
  client: Socket<Pair>;
  server: Socket<unknown> | null;
  toServer: Buffer[];
  toClient: Buffer[];
  marked: boolean;
  /** The server's answers are dropped: the line went dead after the COMMIT left. */
  deaf: boolean;
}

export function startPgProxy(targetUrl: string): PgProxy {
  const target = new URL(targetUrl);
  let armed: { at: CutAt; refuseMs: number } | null = null;
  let refuseUntil = 0;
  let cutDone: () => void = () => {};
  let cut = new Promise<void>((r) => (cutDone = r));
  const flush = (s: Socket<unknown> | null, queue: Buffer[]) => {
    if (!s) return;
    while (queue.length) {
      const chunk = queue[0] as Buffer;
      const n = s.write(chunk);
      if (n < chunk.length) {
        queue[0] = chunk.subarray(n);
        return;
      }
      queue.shift();
    }
  };
  const pairs = new Set<Pair>();
  const close = (p: Pair) => {
    pairs.delete(p);
    p.client.end();
    p.server?.end();
  };
  /** As a database restarting: every connection it had is gone. */
  const closeAll = () => {
    for (const p of [...pairs]) close(p);
  };
  const listener: TCPSocketListener<Pair> = Bun.listen<Pair>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(client) {
        const p: Pair = { client, server: null, toServer: [], toClient: [], marked: false, deaf: false };
        client.data = p;
        if (Date.now() < refuseUntil) return void client.end();
        pairs.add(p);
        try {
          p.server = await Bun.connect({
            hostname: "127.0.0.1",
            port: Number(target.port),
            socket: {
              data(_s, chunk) {
                if (p.deaf) return;
                p.toClient.push(Buffer.from(chunk));
                flush(p.client as Socket<unknown>, p.toClient);
              },
              drain: (s) => flush(s, p.toServer),
              close: () => void p.client.end(),
              error: () => void p.client.end(),
            },
          });
          flush(p.server, p.toServer);
        } catch {
          client.end();
        }
      },
      data(client, chunk) {
        const p = client.data;
        const bytes = Buffer.from(chunk);
        if (armed && bytes.includes(MARKER)) {
          if (armed.at === "before-marker") {
            refuseUntil = Date.now() + armed.refuseMs;
            armed = null;
            closeAll();
            return cutDone();
          }
          p.marked = true;
        }
        if (armed && p.marked && bytes.includes(COMMIT)) {
          // Forwarded, then the line goes dead before the answer: PostgreSQL commits, nobody hears it.
          p.toServer.push(bytes);
          flush(p.server, p.toServer);
          refuseUntil = Date.now() + armed.refuseMs;
          armed = null;
          p.deaf = true;
          p.toClient = [];
          setTimeout(() => {
            closeAll();
            cutDone();
          }, 200);
          return;
        }
        p.toServer.push(bytes);
        flush(p.server, p.toServer);
      },
      drain: (client) => flush(client as Socket<unknown>, client.data.toClient),
      close: (client) => {
        if (client.data) pairs.delete(client.data);
        client.data?.server?.end();
      },
      error: (client) => void client.data?.server?.end(),
    },
  });
  const url = targetUrl.replace(`:${target.port}/`, `:${listener.port}/`);
  return {
    url,
    arm(at, refuseMs) {
      armed = { at, refuseMs };
      cut = new Promise<void>((r) => (cutDone = r));
    },
    get cut() {
      return cut;
    },
    stop: () => listener.stop(true),
  };
}
