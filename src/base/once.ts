/** `read` called the first time it is asked for, its answer (a promise too) kept for every later ask. */
export function once<T>(read: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => (kept ??= { value: read() }).value;
}
