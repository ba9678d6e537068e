/**
 * Pieces of a secret in a text, however spelled: case changed, characters spread by spaces,
 * dashes or zero-width characters, written in compatibility forms (full-width, math bold,
 * circled: NFKC), as character references (`&#115;k-…`) or escapes (`\u0073k-…`), or only a
 * prefix of it. Both the text and the secret are folded to their ASCII letters and digits, lower
 * case, and any SECRET_RUN consecutive characters of the folded secret found in the folded text is
 * a piece of it. `mask` hides each piece found where it was written, so a failure's detail or a
 * model's output can be logged and shown without the key in any spelling; what it cannot place
 * (a piece only references or escapes spell) withholds the whole text. Linear in the text.
 */

/** A run of this many letters and digits of a secret is a piece of it (keys are 32 and more). */
export const SECRET_RUN = 8;

/** A character's ASCII letters and digits after NFKC (ｓ, 𝐬 and ⓢ are s), lower case. */
function alnumOf(ch: string): string {
  const code = ch.charCodeAt(0);
  const f = code < 0x80 ? ch : ch.normalize("NFKC");
  let out = "";
  for (let k = 0; k < f.length; k++) {
    let c = f.charCodeAt(k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) out += String.fromCharCode(c);
  }
  return out;
}

/** `s`'s letters and digits folded (alnumOf); `at` maps each back to where in `s` it was written. */
function foldAlnum(s: string): { folded: string; at: Int32Array } {
  const at: number[] = [];
  const chars: string[] = [];
  let i = 0;
  for (const ch of s) {
    const a = alnumOf(ch);
    for (let k = 0; k < a.length; k++) {
      at.push(i);
      chars.push(a[k] as string);
    }
    i += ch.length;
  }
  return { folded: chars.join(""), at: Int32Array.from(at) };
}

/** The same text with character references and \u / \x escapes decoded: how a key can be written without its letters. */
function decoded(s: string): string {
  return s
    .replace(/&#[xX]([0-9a-fA-F]{1,6});?|&#(\d{1,7});?/g, (_, hex: string | undefined, dec: string | undefined) => {
      const n = hex ? parseInt(hex, 16) : Number(dec);
      return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : "";
    })
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (_, a: string | undefined, b: string | undefined, c: string | undefined) => {
      const n = parseInt((a ?? b ?? c) as string, 16);
      return n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : "";
    });
}

/** Every run of `run` characters of each secret, folded. */
function piecesOf(secrets: readonly string[], run: number): Set<string> {
  const pieces = new Set<string>();
  for (const s of secrets) {
    const f = foldAlnum(s).folded;
    for (let i = 0; i + run <= f.length; i++) pieces.add(f.slice(i, i + run));
  }
  return pieces;
}

/** Where pieces of the secrets are written in `text`: [start, end) ranges, merged, in order. */
export function secretSpans(text: string, secrets: readonly string[], run = SECRET_RUN): [number, number][] {
  const pieces = piecesOf(secrets, run);
  if (!pieces.size) return [];
  const { folded, at } = foldAlnum(text);
  const spans: [number, number][] = [];
  for (let i = 0; i + run <= folded.length; i++) {
    if (!pieces.has(folded.slice(i, i + run))) continue;
    const start = at[i] as number;
    const end = (at[i + run - 1] as number) + 1;
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/** Whether `text`, as written or with its references and escapes decoded, holds a piece of a secret. */
export const holdsSecret = (text: string, secrets: readonly string[], run = SECRET_RUN): boolean =>
  secretSpans(text, secrets, run).length > 0 || (/[&\\]/.test(text) && secretSpans(decoded(text), secrets, run).length > 0);

/** What stands for a text that holds a piece of a secret `mask` cannot place. */
export const WITHHELD = "(withheld: it holds a piece of a secret)";

/** `text` with every piece of the secrets replaced by "…". */
export function mask(text: string, secrets: readonly (string | undefined)[]): string {
  const given = secrets.filter((s): s is string => Boolean(s));
  if (!given.length) return text;
  const spans = secretSpans(text, given);
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + "…";
    from = end;
  }
  out += text.slice(from);
  // A piece only references or escapes spell has no place to mask: nothing of the text is kept.
  return holdsSecret(out, given) ? WITHHELD : out;
}
