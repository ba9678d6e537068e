/**
 * A function of a string kept for the strings asked again — the same articles' titles, keywords and
 * taught questions come back with message after message — forgetting them all past `held`: bounded
 * whatever the accounts hold.
 */
export function memoized<T>(held: number, f: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined && !kept.has(key)) {
      if (kept.size >= held) kept.clear();
      kept.set(key, (value = f(key)));
    }
    return value as T;
  };
}
