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

/** Words Porter reads as another word by their -ant or -ance, each read as itself (its plural and -ancy with it). */
const APART_ANT = new Map(
  Object.entries({ accountant: ["accountants", "accountancy"], assistant: ["assistants"], important: ["importance"], attendant: ["attendants"], dependant: ["dependants"], resistant: [] }).flatMap(([word, forms]) => [[word, word] as const, ...forms.map((f) => [f, word] as const)]),
);

/**
 * An English word as it is ranked: Porter's stem (the `stemmer` package: "deliveries" and "delivery"
 * are "deliveri"), or the stem of the word it is made from where Porter keeps them apart ("delivery"
 * and "delivered": deliv; derived-stems.ts, from WordNet); numbers as written; an accountant,
 * assistant, attendant, dependant, "important" and "resistant" as themselves (APART_ANT).
 */
export function stemWord(w: string): string {
  if (/\d/.test(w)) return w;
  const s = porter(w);
  // Porter takes -ant and -ance away: an accountant was an account ("i cant access my account" got the
  // accountant-access article first — a bookkeeping app's walkthrough), an "important" matter one to
  // import. Only these, whose word without the ending is another thing: an applicant's application,
  // a participant's taking part, a consultant's consultation are one topic (a review).
  const apart = APART_ANT.get(w);
  if (apart !== undefined) return apart;
  return DERIVED.get(s) ?? s;
}
