/**
 * The callback's query parameters (signature, timestamp, nonce, …), first occurrence wins.
 *
 * The platform's queries are plain ASCII: those are split by hand, which costs a fraction of
 * `new URL()`. A query with any escape (`%` or `+`) goes through URLSearchParams, so decoding is
 * exactly the standard's.
 */
import { knownNames } from "./interned-names.ts";

export type Query = Record<string, string | undefined>;

/** The platform's parameter names (see interned-names.ts for why they are returned as constants). */
const knownKey = knownNames(["signature", "timestamp", "nonce", "openid", "encrypt_type", "msg_signature", "echostr"]);

export function queryOf(url: string): Query {
  const out: Query = Object.create(null);
  const start = url.indexOf("?");
  if (start < 0) return out;
  let end = url.indexOf("#", start);
  if (end < 0) end = url.length;
  const query = url.slice(start + 1, end);
  if (query.includes("%") || query.includes("+")) {
    for (const [k, v] of new URLSearchParams(query)) if (!(k in out)) out[k] = v;
    return out;
  }
  let from = 0;
  while (from <= query.length) {
    let amp = query.indexOf("&", from);
    if (amp < 0) amp = query.length;
    if (amp > from) {
      const eq = query.indexOf("=", from);
      const hasValue = eq >= 0 && eq < amp;
      const end = hasValue ? eq : amp;
      const key = knownKey(query, from, end) ?? query.slice(from, end);
      if (!(key in out)) out[key] = hasValue ? query.slice(eq + 1, amp) : "";
    }
    from = amp + 1;
  }
  return out;
}
