/** An account of the evaluation sets (bench/eval/sets.ts), its articles as the ranking's benches read them. */
import { MemorySource } from "../bench/eval/memory-source.ts";
import { loadSet } from "../bench/eval/sets.ts";

export function evalAccount(set: string, id: string): MemorySource {
  const account = loadSet(set).accounts.find((a) => a.id === id);
  if (!account) throw new Error(`no account ${id} in the evaluation set ${set}`);
  return new MemorySource(account.articles);
}
