/**
 * A worker thread's file refuses to run on the main thread. Its top level sets `self.onmessage`,
 * which on the main thread installs a message handler on the process's global and keeps the
 * process alive after everything else has ended: a value import from log-worker.ts once did that
 * to every process that loaded the store (log-rows.ts). Loaded by mistake, such a file now fails
 * at once and names itself instead of leaving whatever loaded it running forever.
 *
 * Bun.isMainThread is false in a Worker both from source and in the compiled binary, where the
 * workers are entry points of their own (scripts/release.ts ENTRIES).
 */
export function refuseMainThread(file: string): void {
  if (Bun.isMainThread) {
    throw new Error(`${file} must be started as a Worker (new Worker(...)), not imported: on the main thread its self.onmessage would keep the process alive`);
  }
}
