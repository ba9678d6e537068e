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

async function ready(port: number): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await Bun.sleep(20)) {
    try {
      const c = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      c.end();
      return;
    } catch {}
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

/** `extra`: more redis-server options (the error-class tests turn on DEBUG and CONFIG SET dir). */
export async function startRedis(extra: string[] = []): Promise<Redis> {
  const bin = redisServerPath();
  const port = freePort();
  let proc: Subprocess | null = null;
  const start = async () => {
    proc = Bun.spawn([bin, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning", ...extra], {
      stdout: "ignore",
      stderr: "ignore",
    });
    await ready(port);
  };
  await start();
  const kill = () => {
    (proc as Subprocess | null)?.kill("SIGKILL");
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
