/**
 * Writes to stdout and stderr that the process waits for before it exits. A pipe takes 64 KiB
 * before its reader reads; the rest waits in the process, and exiting drops it. Only each write's
 * own callback says when its bytes have left (in Bun, an empty write's callback, `drain` and
 * `writableLength` can all say so early), so every write is tracked: `replyd ls --json | slow-reader`
 * and a server's last log lines after SIGTERM arrive whole.
 */
let pending: Promise<void> = Promise.resolve();

export function write(stream: NodeJS.WriteStream, text: string | Uint8Array): void {
  const left = new Promise<void>((done) => stream.write(text, () => done()));
  pending = Promise.all([pending, left]).then(() => {});
}

/** Resolves once every write made so far has left the process. */
export const written = (): Promise<void> => pending;
