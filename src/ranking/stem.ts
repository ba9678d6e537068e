/**
 * An English word as the ranking reads it (docs/answers.md "How articles are ranked"): Porter's
 * stem, and where Porter keeps apart a word and the one it is made from, that one's stem.
 */
import { stemmer as porter } from "stemmer";
import { DERIVED_STEMS } from "./derived-stems.ts";

/** Each stem (Porter's) → the stem of the word it is made from (derived-stems.ts). */
const DERIVED = new Map<string, string>();
{
  const d = DERIVED_STEMS.split(" ");
  for (let i = 0; i + 1 < d.length; i += 2) DERIVED.set(d[i] as string, d[i + 1] as string);
}

const ANT = /ants?$/;

/**
 * An English word as it is ranked: Porter's stem (the `stemmer` package: "deliveries" and "delivery"
 * are "deliveri"), or the stem of the word it is made from where Porter keeps them apart ("delivery"
 * and "delivered": deliv; derived-stems.ts, from WordNet); numbers as written; a word ending in -ant
 * as itself where Porter would take the ending away (accountant, assistant, important).
 */
export function stemWord(w: string): string {
  if (/\d/.test(w)) return w;
  const s = porter(w);
  // A person is not what they do: Porter takes -ant away ("accountant" was "account": "i cant access
  // my account" got the accountant-access article first — a bookkeeping app's walkthrough), and an
  // "important" matter none to import. The word itself then, its plural as it.
  if (ANT.test(w) && !s.endsWith("ant")) return w.replace(/s$/, "");
  return DERIVED.get(s) ?? s;
}
