/**
 * A throwaway Redis on loopback for the cluster tests (issue 15): redis-server from Debian's
 * package (./scripts/test installs it when missing), on a free port, nothing saved to disk. halt()
 * kills it (connections cut, its memory gone, as a crashed Redis); resume() starts it again on the
 * same port.
 */
import { existsSync } from "node:fs";
import type { Subprocess } from "bun";

export interface Redis {
  url: string;
  port: number;
  /** The server process's pid (the bench reads its CPU time). */
  readonly pid: number | undefined;
  stop(): void;
  halt(): void;
  resume(): Promise<void>;
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export function redisServerPath(): string {
  const found = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p)) ?? Bun.which("redis-server");
  if (!found) throw new Error("redis-server is not installed: ./scripts/test installs it with apt-get install redis-server");
  return found;
}

/**
 * Ready means this process answers PING. A bare connect is not enough: after a SIGKILL the kernel
 * still completes handshakes on the dying process's listening socket for a moment, while the new
 * process fails to bind the port and exits (CI once lost Redis for the rest of a file that way).
 */
async function ready(port: number, proc: Subprocess): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await Bun.sleep(20)) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`redis-server exited (${proc.exitCode ?? proc.signalCode}) before it listened on ${port}`);
    if (await answersPing(port)) return;
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let got = "";
    // Resolved before end(): end() runs close() at once, which would settle it as false.
    const done = (ok: boolean, s?: { end(): void }) => {
      resolve(ok);
      s?.end();
    };
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write("PING\r\n");
        },
        data(s, d) {
          got += d.toString();
          if (got.includes("\r\n")) done(got.startsWith("+PONG"), s);
        },
        close() {
          done(false);
        },
        error() {
          done(false);
        },
      },
    }).catch(() => done(false));
    setTimeout(() => done(false), 1000);
  });
}

/** `extra`: more redis-server options (the error-class tests turn on DEBUG and CONFIG SET dir). */
export async function startRedis(extra: string[] = []): Promise<Redis> {
  const bin = redisServerPath();
  const port = freePort();
  let proc: Subprocess | null = null;
  let dying: Promise<unknown> = Promise.resolve();
  const start = async () => {
    // The port is free only once the killed process has gone.
    await dying;
    const p = Bun.spawn([bin, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", ...extra], {
      stdout: "ignore",
      stderr: "ignore",
    });
    proc = p;
    try {
      await ready(port, p);
    } catch (e) {
      // Never left running behind a failed start.
      p.kill("SIGKILL");
      proc = null;
      throw e;
    }
  };
  await start();
  const kill = () => {
    const p = proc as Subprocess | null;
    if (!p) return;
    p.kill("SIGKILL");
    dying = p.exited;
    proc = null;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return (proc as Subprocess | null)?.pid;
    },
    stop: kill,
    halt: kill,
    resume: start,
  };
}
