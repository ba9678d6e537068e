/**
 * Work that must not interleave with itself — two pushes of the menu, two replies spending a
 * follower's last allowance — runs one at a time per key, in arrival order, within a process (the
 * PostgreSQL backend adds a lock across instances: postgres/exclusive.ts). Per owner, so tests'
 * apps never wait on each other.
 */

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** One at a time per key within this process. */
export function oneAtATime<T>(owner: object, key: string, work: () => Promise<T>): Promise<T> {
  let q = queues.get(owner);
  if (!q) queues.set(owner, (q = new Map()));
  const before = q.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.then(
    () => {},
    () => {},
  );
  q.set(key, settled);
  void settled.then(() => q.get(key) === settled && q.delete(key));
  return run;
}

