/**
 * The questions nothing answered, grouped so that the same question in other words counts once
 * (docs/operations.md "The report"). Cheap and deterministic: a question is the set of its content
 * terms as the ranking reads them (ranking/words.ts meaningTerms: filler words out, plurals folded,
 * Chinese as characters and pairs, a phrase of the operator's synonyms as its group), so "how do I get
 * a refund?" and "refund please" are one question; questions whose sets share at least half of
 * their terms (Jaccard ≥ JOIN_AT) join the group, the most asked first. Bounded: the newest
 * UNANSWERED_READ texts (store/report-query.ts), at most MAX_TERMS terms of each, at most
 * MAX_POSTINGS groups looked at per term.
 */
import { meaningTerms } from "../../ranking/words.ts";
import { LIMITS } from "../../article/text-rules.ts";
import { unprefixed } from "../../store/log-kinds.ts";

export const JOIN_AT = 0.5;
export const MAX_TERMS = 32;
export const MAX_POSTINGS = 256;

export interface AskedText {
  seq: number;
  at: string;
  from: string;
  text: string;
  /** fallback or not_found, with the articles the ranking considered after ":". */
  answer: string;
}

export interface QuestionGroup {
  /** The phrasing asked most (the newest of equals). */
  text: string;
  /** Messages in the group, and the followers who sent them. */
  count: number;
  followers: number;
  last_at: string;
  /** The newest message of that phrasing: replyd teach SEQ ARTICLE teaches it. */
  seq: number;
  /** The articles the ranking considered most often for them (none was close enough to send). */
  considered: string[];
  /** Its wording was asked as a follow-up (read with the question before): asked alone it says nothing of how it was read. */
  followup?: true;
  /**
   * What the ranking offers its wording now, asked alone, when it offers something (answer:ID, or
   * answers:IDs for a list): taught since, or its articles changed (report/route.ts). Absent: still nothing.
   */
  answered_now?: string;
}

interface Phrasing {
  key: string;
  terms: string[];
  texts: AskedText[];
}

/** A text's phrasing: its distinct terms sorted, or the text itself folded when it has none (an emoji). */
function phrasingKey(text: string): { key: string; terms: string[] } {
  // Of what a teach could take of it (LIMITS.question characters; figures.ts says why).
  const terms = [...new Set(meaningTerms(text.slice(0, LIMITS.question)))].sort().slice(0, MAX_TERMS);
  return terms.length ? { key: terms.join(" "), terms } : { key: `=${text.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ")}`, terms: [] };
}

/** The articles a fallback:<ids> or not_found:<ids> answer names, a follow-up's too ("" for none). */
const consideredIn = (answer: string): string => {
  const plain = unprefixed(answer);
  const colon = plain.indexOf(":");
  return colon < 0 ? "" : plain.slice(colon + 1);
};

const countsOf = <T>(xs: T[]): Map<T, number> => {
  const m = new Map<T, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

/** The most frequent of `xs`, the first of equals. */
function mostFrequent<T>(xs: T[]): T | undefined {
  let best: T | undefined;
  let most = 0;
  for (const [x, n] of countsOf(xs)) if (n > most) [best, most] = [x, n];
  return best;
}

/** `texts` newest first; answers the `limit` groups asked most, and how many groups there were. */
export function groupQuestions(texts: readonly AskedText[], limit: number): { groups: QuestionGroup[]; total: number } {
  // The same terms: one phrasing. Phrasings are then taken the most asked first (the newest first among equals).
  const phrasings = new Map<string, Phrasing>();
  for (const t of texts) {
    const { key, terms } = phrasingKey(t.text);
    const p = phrasings.get(key);
    if (p) p.texts.push(t);
    else phrasings.set(key, { key, terms, texts: [t] });
  }
  const ordered = [...phrasings.values()].sort((a, b) => b.texts.length - a.texts.length);

  // Each phrasing joins the group whose first phrasing shares the most of its terms, if at least JOIN_AT.
  const groups: { terms: string[]; phrasings: Phrasing[] }[] = [];
  const postings = new Map<string, number[]>();
  for (const p of ordered) {
    let best = -1;
    let bestScore = 0;
    if (p.terms.length) {
      const shared = new Map<number, number>();
      for (const term of p.terms) for (const g of (postings.get(term) ?? []).slice(0, MAX_POSTINGS)) shared.set(g, (shared.get(g) ?? 0) + 1);
      for (const [g, n] of shared) {
        const score = n / (p.terms.length + (groups[g] as { terms: string[] }).terms.length - n);
        if (score >= JOIN_AT && (score > bestScore || (score === bestScore && g < best))) [best, bestScore] = [g, score];
      }
    }
    if (best >= 0) {
      (groups[best] as { phrasings: Phrasing[] }).phrasings.push(p);
      continue;
    }
    for (const term of p.terms) {
      const list = postings.get(term);
      if (list) list.push(groups.length);
      else postings.set(term, [groups.length]);
    }
    groups.push({ terms: p.terms, phrasings: [p] });
  }

  const shown = groups.map((g) => {
    const all = g.phrasings.flatMap((p) => p.texts);
    // Its most asked wording (the newest of equals: texts are newest first).
    const wording = mostFrequent(all.map((t) => t.text.trim())) as string;
    const newest = all.reduce((a, b) => (b.seq > a.seq ? b : a));
    const rep = all.filter((t) => t.text.trim() === wording).reduce((a, b) => (b.seq > a.seq ? b : a));
    const considered = mostFrequent(all.map((t) => consideredIn(t.answer)).filter(Boolean));
    const followup = all.some((t) => t.text.trim() === wording && unprefixed(t.answer) !== t.answer);
    return {
      ...(followup ? { followup: true as const } : {}),
      text: wording,
      count: all.length,
      followers: new Set(all.map((t) => t.from)).size,
      last_at: newest.at,
      seq: rep.seq,
      considered: considered ? considered.split(",") : [],
    };
  });
  shown.sort((a, b) => b.count - a.count || b.followers - a.followers || b.seq - a.seq);
  return { groups: shown.slice(0, limit), total: shown.length };
}
