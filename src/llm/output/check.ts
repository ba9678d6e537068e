/**
 * What a model wrote, checked before a follower sees it (docs/answers.md "What the checks
 * refuse"): the one door between a model and a follower. Each check is a layer of its own and
 * refuses with its reason:
 *
 * - `secret`: it holds a piece of a secret replyd knows (the endpoint's key), in any spelling;
 * - `prompt_echo`: it repeats the instructions (the process's canary, or a run of their words);
 * - `no_answer`: the model said the sources do not answer (NO_ANSWER), or wrote nothing;
 * - `foreign_link`: it links anywhere but the given articles, in any spelling (links.ts);
 * - `ungrounded`: it gives a contact, a reference or a figure that neither the given passages
 *   nor the question hold (grounding.ts);
 * - `no_citation`: it cites none of the given articles.
 *
 * Only what could ever be shown is read (normalise.ts RAW_CHARS), and every step is linear in
 * it: a model writing 256 KiB of `[` costs the event loop what a short answer does. What passes
 * is made plain text (markup.ts), its citations renumbered in the order they appear, the cited
 * articles listed after it with their links, and cut at a sentence so that the whole fits the
 * platform's 2,048 bytes.
 */
import type { Source } from "../prompt.ts";
import { utf8Prefix } from "../../base/utf8.ts";
import { groundsOf, ungrounded } from "./grounding.ts";
import { findLinks, heldBy, hostPath, sameAddress } from "./links.ts";
import { decodeReferences, dropEmptyBrackets, neutralise, plainText, settled, tidy } from "./markup.ts";
import { cutChars, fold, RAW_CHARS, seen as seenOf, visible } from "./normalise.ts";
import { holdsSecret, SECRET_RUN } from "./secrets.ts";

export const REFUSALS = ["no_answer", "secret", "prompt_echo", "foreign_link", "ungrounded", "no_citation"] as const;
export type Refusal = (typeof REFUSALS)[number];

export type Checked = { ok: true; text: string; cited: Source[] } | { ok: false; reason: Refusal; detail: string };

export interface CheckOptions {
  /** Never to be shown, in any spelling: the endpoint's key. */
  secrets: readonly string[];
  /** Never to be repeated. */
  instructions: string;
  /** A random mark in the instructions: an answer holding it repeats them. */
  canary: string;
  /** What the follower asked: an answer may restate its figures and names. */
  question: string;
  maxBytes: number;
}

const MINI_PROGRAM = /data-miniprogram-(?:appid|path)/i;
/** A tag's link: href, src or action, its value quoted or not. */
const LINK_ATTRIBUTE = /\b(?:href|src|action|formaction)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/** A run of this many characters of the instructions in an answer is an echo of them. */
export const ECHO_RUN = 24;
export { SECRET_RUN };

const collapsed = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

/** Whether `text` holds any `run`-character piece of `of`, both with case folded and white space collapsed. Linear in `text`. */
export function holdsRun(text: string, of: string, run: number): boolean {
  const t = collapsed(text);
  const o = collapsed(of);
  if (o.length < run) return o.length > 0 && t.includes(o);
  const pieces = new Set<string>();
  for (let i = 0; i + run <= o.length; i++) pieces.add(o.slice(i, i + run));
  for (let i = 0; i + run <= t.length; i++) if (pieces.has(t.slice(i, i + run))) return true;
  return false;
}

/** [1], [1, 2], [1-2], 【1】, ［1］, 〔1〕 (full-width brackets, as Chinese models write them). */
const CITE_RE = /[[【［〔]\s*(\d{1,2}(?:\s*[,，、;；\-–]\s*\d{1,2})*)\s*[\]】］〕]/g;

/** The numbers a citation names; a range 1-3 names each. */
function citedNumbers(nums: string): number[] {
  const out: number[] = [];
  for (const part of nums.split(/[,，、;；]/)) {
    const [a, b] = part.split(/[-–]/).map((x) => Number(x.trim())) as [number, number | undefined];
    if (b === undefined) out.push(a);
    else for (let n = a; n <= Math.min(b, a + 9); n++) out.push(n);
  }
  return out;
}

/**
 * Checks `raw` against the given sources. The answer is composed first — markup reduced, the
 * given articles' links taken out (they are listed after it), citations renumbered, cut to fit —
 * and the checks then read exactly what would be sent, as well as what the model wrote: a text
 * changed after the checks could join "sk-li[9]ve…" or "evil[9].example" back together.
 */
export function checkOutput(raw: string, sources: readonly Source[], o: CheckOptions): Checked {
  const refuse = (reason: Refusal, detail: string): Checked => ({ ok: false, reason, detail });
  const head = cutChars(raw, RAW_CHARS);
  const seen = seenOf(raw);
  const grounds = groundsOf([...sources.flatMap((s) => [s.title, ...s.passages]), o.question]);
  const held = heldLinks(sources, o.question);
  // What must never leave is looked for first (the instructions hold the word NO_ANSWER themselves).
  const secretOrEcho = (text: string): Checked | null => {
    if (holdsSecret(text, o.secrets.filter((s) => s.length >= SECRET_RUN))) return refuse("secret", "the answer holds a piece of a secret");
    if (holdsSecret(text, [o.canary], o.canary.length) || holdsRun(fold(text).text, o.instructions, ECHO_RUN)) return refuse("prompt_echo", "the answer repeats replyd's instructions");
    return null;
  };
  const first = secretOrEcho(head);
  if (first) return first;
  const seenFolded = fold(seen).text;
  if (!seenFolded.trim() || /\bNO_ANSWER\b/.test(seenFolded)) return refuse("no_answer", "the model found no answer in the sources");
  /** A given article's link, or one the passages or the question write. */
  const given = (link: string) => sources.some((s) => sameAddress(s.url, link)) || heldBy(link, held);
  // Citations read as spaces: "evil[9].example" is a link once [9] is gone.
  const foreign = (folded: string): Checked | null => {
    for (const link of findLinks(folded.replace(CITE_RE, " "))) if (!given(link.text)) return refuse("foreign_link", `the answer links to ${link.text.slice(0, 80)}, which is none of the given articles`);
    return null;
  };
  // What the model wrote, before its markup is reduced: a link in a tag's attribute leaves with the
  // tag and its words stay — "<a href=\"http://evil.example/x\">点这里领券</a>" had reached a
  // follower as 点这里领券, a call to act on a link no article gives (a grocery's walkthrough).
  // References decoded first ("&amp;" in a given article's href is its "&"; "evil&period;example" a host).
  // A tag's link must be a given article's, whatever it names — a relative one ("/coupon") too: its
  // words would call the follower to act on nothing. A mini program's link names no host: WeChat
  // opens data-miniprogram-appid's program from a text reply.
  // Decoded until nothing changes: "&amp;amp;" is "&" as a browser would, given time.
  const writ = fold(settled(seen, decodeReferences)).text;
  const attribute = [...writ.matchAll(LINK_ATTRIBUTE)].map((m) => (m[1] ?? m[2] ?? m[3] ?? "").trim()).find((v) => !given(v));
  const written =
    // An attribute's name is no part of its link ("href=https://…" is the link https://…): a line
    // break in its place, which joins nothing (a space would: "example . <evil" read as a host).
    foreign(writ.replace(/\b(?:href|src|action|formaction)\s*=\s*["']?/gi, "\n")) ??
    (attribute !== undefined ? refuse("foreign_link", `the answer links to ${attribute.slice(0, 80) || "(nothing)"}, which is none of the given articles`) : null) ??
    (MINI_PROGRAM.test(writ) ? refuse("foreign_link", "the answer links to a mini program, which is none of the given articles") : null);
  if (written) return written;

  // Composed: markup reduced and references decoded; the given articles' links cite them and leave the text.
  let text = visible(plainText(seen));
  const folded = fold(text);
  const cited = new Set<Source>();
  let body = "";
  let from = 0;
  for (const link of findLinks(folded.text)) {
    const source = sources.find((s) => sameAddress(s.url, link.text));
    if (!source) continue;
    cited.add(source);
    // A space where it stood: what was either side is never joined.
    body += `${text.slice(from, folded.at[link.start] as number)} `;
    from = folded.at[link.end] as number;
  }
  text = tidy(dropEmptyBrackets(body + text.slice(from)));

  /** The link and grounding checks, and the secret's again, on a text as it would be shown. */
  const inspect = (t: string): Checked | null => {
    const again = secretOrEcho(t) ?? foreign(fold(t).text);
    if (again) return again;
    const missing = ungrounded(fold(t).text.replace(CITE_RE, " "), grounds);
    if (missing)
      return refuse("ungrounded", `the answer gives ${missing.kind === "figure" ? "the figure" : `the ${missing.kind.replace("_", " ")}`} ${missing.text.slice(0, 80)}, which neither the given passages nor the question hold`);
    return null;
  };
  const whole = inspect(text);
  if (whole) return whole;

  // Cut at a sentence, leaving room for the sources it cites; the numbers then follow the order of first citation.
  const byNumber = new Map(sources.map((s) => [s.n, s]));
  const sourceLines = (list: Source[]) => list.map((s, i) => `[${i + 1}] ${s.title}\n${s.url}`).join("\n");
  const citedIn = (t: string) => {
    const found: Source[] = [];
    for (const m of t.matchAll(CITE_RE))
      for (const n of citedNumbers(m[1] as string)) {
        const s = byNumber.get(n);
        if (s && !found.includes(s)) found.push(s);
      }
    for (const s of cited) if (!found.includes(s)) found.push(s);
    return found;
  };
  body = text;
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
  body = neutralise(
    tidy(
      body.replace(CITE_RE, (_, nums: string) => {
        const kept = [...new Set(citedNumbers(nums).map((n) => order.get(n)).filter((n): n is number => n !== undefined))];
        // A number of no given article leaves a space: never joins its neighbours.
        return kept.length ? kept.map((n) => `[${n}]`).join("") : " ";
      }),
    ),
  );
  // What is sent is checked as it is sent.
  const sent = inspect(body);
  if (sent) return sent;
  const out = `${body}\n\n${sourceLines(list)}`;
  return { ok: true, text: Buffer.byteLength(out) <= o.maxBytes ? out : utf8Prefix(out, o.maxBytes), cited: list };
}

/** What links the given texts write: the articles' own, and those of their passages, titles and the question. */
function heldLinks(sources: readonly Source[], question: string): { host: string; path: string }[] {
  const out = sources.map((s) => hostPath(s.url));
  for (const t of [...sources.flatMap((s) => [s.title, ...s.passages]), question]) for (const l of findLinks(fold(t).text)) out.push(hostPath(l.text));
  return out;
}

/** The longest prefix of `s` within `maxBytes` ending at a sentence's end; without one, cut with "…". */
export function cutAtSentence(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  const head = utf8Prefix(s, maxBytes);
  let end = -1;
  for (const m of head.matchAll(/[。！？!?；;]|\.(?=\s|$)|\n/g)) end = (m.index as number) + m[0].length;
  // A citation right after the sentence's end belongs to it.
  if (end > 0) {
    const tail = /^\s*(?:[[【]\s*\d{1,2}(?:\s*[,，、]\s*\d{1,2})*\s*[\]】])+/.exec(head.slice(end, end + 64));
    if (tail) end += tail[0].length;
  }
  if (end > head.length / 3) return head.slice(0, end).trimEnd();
  return utf8Prefix(s, maxBytes - 3).trimEnd() + "…";
}

/** Markdown and HTML as the text a follower would be shown (markup.ts), invisible characters removed. */
export const shownText = (md: string): string => tidy(visible(plainText(visible(md))));
