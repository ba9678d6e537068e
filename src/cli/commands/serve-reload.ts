/**
 * `replyd serve --reload`: the running server of the same --config/--data is told to read its
 * config file again (SIGHUP to the pid in its data folder's serve.pid), and what it did is
 * reported: the accounts added, changed and removed, or why nothing changed (exit 1). Settings
 * that do not parse here are refused before any signal is sent (exit 2), as serve would refuse them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readReloadOutcome, type WrittenOutcome } from "../../server/reload.ts";
import type { CommandContext } from "../context.ts";
import { CLIError } from "../errors.ts";

/** Longest wait for the server's outcome: a reload drains what its old accounts are answering (≤ 5 s each, a model's answers longer). */
const WAIT_MS = 30_000;

function runningPid(dataDir: string): number {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, "serve.pid"), "utf8").trim());
  } catch {
    throw new CLIError("not_running", `no replyd serve runs on ${dataDir} (no serve.pid there): give the --config and --data it was started with`);
  }
  try {
    process.kill(pid, 0);
  } catch {
    throw new CLIError("not_running", `the replyd serve of ${dataDir} (pid ${pid}) is not running`);
  }
  return pid;
}

const named = (names: string[]) => (names.length ? names.join(", ") : "none");

export async function signalReload(c: CommandContext, dataDir: string): Promise<void> {
  const pid = runningPid(dataDir);
  const sent = Date.now();
  process.kill(pid, "SIGHUP");
  let outcome: WrittenOutcome | null = null;
  while (Date.now() - sent < WAIT_MS) {
    const written = readReloadOutcome(dataDir);
    if (written && written.pid === pid && written.asked >= sent) {
      outcome = written;
      break;
    }
    await Bun.sleep(50);
  }
  if (!outcome) throw new CLIError("timeout", `the server (pid ${pid}) was signalled but wrote no outcome in ${WAIT_MS / 1000} s: its log says what it did`);
  const { asked: _asked, pid: _pid, ...shown } = outcome;
  if (c.json) c.io.out(JSON.stringify(shown, null, 2));
  if (!outcome.ok) throw new CLIError("reload_refused", `reload refused, nothing changed: ${outcome.error}`);
  if (!c.json)
    c.io.out(`reloaded (pid ${pid}): added ${named(outcome.added)}; changed ${named(outcome.changed)}; removed ${named(outcome.removed)}; unchanged ${named(outcome.unchanged)}`);
}
