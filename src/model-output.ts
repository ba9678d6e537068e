/**
 * What a model wrote, checked before a follower sees it (docs/answers.md "What the checks
 * refuse"). Each check is a layer of its own and refuses with its reason:
 *
 * - `no_answer`: the model said the sources do not answer (NO_ANSWER), or wrote nothing;
 * - `secret`: it holds a piece of a secret replyd knows (the endpoint's key);
 * - `prompt_echo`: it repeats the instructions (the process's canary, or a run of their words);
 * - `foreign_link`: it links anywhere but the given articles;
 * - `no_citation`: it cites none of the given articles.
 *
 * What passes is made plain text (Markdown and HTML markup dropped), its citations renumbered in
 * the order they appear, the cited articles listed after it with their links, and cut at a
 * sentence so that the whole fits the platform's 2,048 bytes.
 */
import type { Source } from "./model-prompt.ts";
import { utf8Prefix } from "./utf8.ts";

export const REFUSALS = ["no_answer", "secret", "prompt_echo", "foreign_link", "no_citation"] as const;
export type Refusal = (typeof REFUSALS)[number];

export type Checked = { ok: true; text: string; cited: Source[] } | { ok: false; reason: Refusal; detail: string };

/** A run of this many characters of the instructions in an answer is an echo of them. */
export const ECHO_RUN = 24;
/** A run of this many characters of a secret in an answer is a leak of it. */
export const SECRET_RUN = 8;

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

/** Whether `text` holds any `run`-character piece of `of` (both compared with whitespace collapsed and case folded). */
export function holdsRun(text: string, of: string, run: number): boolean {
  const t = normal(text);
  const o = normal(of);
  if (o.length < run) return o.length > 0 && t.includes(o);
  for (let i = 0; i + run <= o.length; i++) if (t.includes(o.slice(i, i + run))) return true;
  return false;
}

/** Markdown (and any HTML tag) as plain text: the words kept, the markup gone; link targets kept beside their text for the link check. */
export function plainText(md: string): string {
  return (
    md
      .replace(/\r\n?/g, "\n")
      // Control characters other than line breaks and tabs; lone surrogates.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")
      .replace(/^```[^\n]*$/gm, "")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
      .replace(/\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, "$1 $2")
      .replace(/<\/?[a-zA-Z][^>]*>/g, "")
      .replace(/^\s{0,3}#{1,6}\s+/gm, "")
      .replace(/^\s{0,3}>\s?/gm, "")
      .replace(/^\s{0,3}([-*_])(\s*\1){2,}\s*$/gm, "")
      .replace(/^(\s*)[*+]\s+/gm, "$1- ")
      .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, "$2")
      .replace(/(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, "$1")
      .replace(/`([^`\n]+)`/g, "$1")
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

const URL_RE = /\b(?:https?:\/\/|www\.)[^\s<>"'，。；！？）】\]]+/gi;
/** [1], [1, 2], 【1】 (full-width brackets, as Chinese models write them). */
const CITE_RE = /[[【]\s*(\d{1,2}(?:\s*[,，、]\s*\d{1,2})*)\s*[\]】]/g;
const trimUrl = (u: string) => u.replace(/[.,;:!?)]+$/, "");
const sameUrl = (a: string, b: string) => a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();

/** Checks `raw` against the given sources; `secrets` are never to be shown, `instructions` never repeated, `canary` marks them. */
export function checkOutput(raw: string, sources: readonly Source[], o: { secrets: readonly string[]; instructions: string; canary: string; maxBytes: number }): Checked {
  const refuse = (reason: Refusal, detail: string): Checked => ({ ok: false, reason, detail });
  // What must never leave is looked for first: the instructions hold the word NO_ANSWER themselves.
  for (const s of o.secrets) if (s.length >= SECRET_RUN && holdsRun(raw, s, SECRET_RUN)) return refuse("secret", "the answer holds a piece of a secret");
  if (raw.includes(o.canary) || holdsRun(raw, o.instructions, ECHO_RUN)) return refuse("prompt_echo", "the answer repeats replyd's instructions");
  if (!raw.trim() || /\bNO_ANSWER\b/.test(raw)) return refuse("no_answer", "the model found no answer in the sources");

  let text = plainText(raw);
  const byNumber = new Map(sources.map((s) => [s.n, s]));
  const cited = new Set<Source>();
  // Links: a given article's cites it (and leaves the text: its link is listed after it); any other refuses the answer.
  for (const m of text.matchAll(URL_RE)) {
    const url = trimUrl(m[0]);
    const source = sources.find((s) => sameUrl(s.url, url) || sameUrl(s.url.replace(/^https?:\/\//, ""), url.replace(/^https?:\/\//, "")));
    if (!source) return refuse("foreign_link", `the answer links to ${url.slice(0, 80)}, which is none of the given articles`);
    cited.add(source);
  }
  text = text
    .replace(URL_RE, (u) => u.slice(trimUrl(u).length))
    .replace(/[ \t]*[(（]\s*[)）]/g, "")
    .replace(/[ \t]{2,}/g, " ");

  // The body cut first, at a sentence, leaving room for the sources it cites; the numbers then follow the order of first citation.
  const sourceLines = (list: Source[]) => list.map((s, i) => `[${i + 1}] ${s.title}\n${s.url}`).join("\n");
  const citedIn = (t: string) => {
    const found: Source[] = [];
    for (const m of t.matchAll(CITE_RE)) for (const n of (m[1] as string).split(/[,，、]/)) {
      const s = byNumber.get(Number(n.trim()));
      if (s && !found.includes(s)) found.push(s);
    }
    for (const s of cited) if (!found.includes(s)) found.push(s);
    return found;
  };
  let body = text;
  let list = citedIn(body);
  if (!list.length) return refuse("no_citation", "the answer cites none of the given articles");
  // Each round cuts the body to what the sources it still cites leave room for.
  for (let round = 0; round < 4; round++) {
    const room = o.maxBytes - Buffer.byteLength(`\n\n${sourceLines(list)}`);
    if (Buffer.byteLength(body) <= room) break;
    body = cutAtSentence(body, Math.max(0, room));
    // Its citations cut off with the end of it: the answer still came from the first article it cited.
    const now = citedIn(body);
    list = now.length ? now : list.slice(0, 1);
  }
  const order = new Map(list.map((s, i) => [s.n, i + 1]));
  body = body
    .replace(CITE_RE, (_, nums: string) => {
      const kept = [...new Set(nums.split(/[,，、]/).map((n) => order.get(Number(n.trim()))).filter((n): n is number => n !== undefined))];
      return kept.length ? kept.map((n) => `[${n}]`).join("") : "";
    })
    .trim();
  const out = `${body}\n\n${sourceLines(list)}`;
  return { ok: true, text: Buffer.byteLength(out) <= o.maxBytes ? out : utf8Prefix(out, o.maxBytes), cited: list };
}

/** The longest prefix of `s` within `maxBytes` ending at a sentence's end; without one, cut with "…". */
export function cutAtSentence(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  const head = utf8Prefix(s, maxBytes);
  let end = -1;
  for (const m of head.matchAll(/[。！？!?；;]|\.(?=\s|$)|\n/g)) end = (m.index as number) + m[0].length;
  // A citation right after the sentence's end belongs to it.
  if (end > 0) {
    const tail = /^\s*(?:[[【]\s*\d{1,2}(?:\s*[,，、]\s*\d{1,2})*\s*[\]】])+/.exec(head.slice(end));
    if (tail) end += tail[0].length;
  }
  if (end > head.length / 3) return head.slice(0, end).trimEnd();
  return utf8Prefix(s, maxBytes - 3).trimEnd() + "…";
}
