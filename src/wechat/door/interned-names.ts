/**
 * Known names returned as the module's own string constants. A name sliced from a request and used
 * as a property key is looked up in the engine's table of key strings on every store and `in` test;
 * a constant already is one. That lookup was half of reading a message and half of reading the
 * callback's query (docs/performance.md).
 *
 * `known(text, from, end)`: the constant equal to text[from, end), or undefined.
 */
export function knownNames(names: readonly string[]): (text: string, from: number, end: number) => string | undefined {
  // By first character (the names are ASCII): a lookup compares with a handful at most.
  const byFirst: string[][] = Array.from({ length: 128 }, () => []);
  for (const name of names) (byFirst[name.charCodeAt(0)] as string[]).push(name);
  return (text, from, end) => {
    const candidates = byFirst[text.charCodeAt(from)];
    if (candidates === undefined) return undefined;
    const length = end - from;
    for (const name of candidates) if (name.length === length && text.startsWith(name, from)) return name;
    return undefined;
  };
}
