import { unknownField } from "../base/suggest.ts";
import { charLength, ID_PATTERN, NO_CONTROL, TAG_PATTERN, unprintable } from "../article/article.ts";
import type { Problem } from "../base/errors.ts";

/** An operator reply rule (DESIGN §5): the first rule whose pattern matches a follower's text wins. */
export interface Rule {
  id: string;
  match: "exact" | "prefix" | "contains" | "regex";
  pattern: string;
  reply: RuleReply;
  /**
   * The message it answers stays in `replyd inbox` for someone to answer too: a rule that
   * acknowledges what only a person can do ("收到您的运单号，店员会查询后回复") had taken it out of the
   * operator's queue (a parcel chain's walkthrough, 0.2.27). Absent: false.
   */
  inbox?: boolean;
}

export type RuleReply =
  | { type: "text"; text: string }
  | { type: "articles"; ids: string[] }
  | { type: "tag"; tag: string };

export const MATCH_KINDS = ["exact", "prefix", "contains", "regex"] as const;
export const TEXT_KEYS = ["welcome", "help", "fallback", "not_found", "media"] as const;
export type TextKey = (typeof TEXT_KEYS)[number];
export type Texts = Partial<Record<TextKey, string>>;
export type Tags = Record<string, string>;

export const RULE_LIMITS = { pattern: 256, text: 2000, ids: 8, tagDescription: 128 } as const;

export function validateRule(raw: unknown, index: number): { value?: Rule; problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (field: string, reason: string) => problems.push({ section: "rules", index, field, reason });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    at("(record)", "must be an object");
    return { problems };
  }
  const r = raw as Record<string, unknown>;
  const fields = ["id", "match", "pattern", "reply", "inbox"];
  for (const key of Object.keys(r)) if (!fields.includes(key)) at(key, unknownField(key, fields));

  if (typeof r.id !== "string" || !ID_PATTERN.test(r.id)) at("id", "must match [a-z0-9][a-z0-9_-]{0,63}");
  if (typeof r.match !== "string" || !(MATCH_KINDS as readonly string[]).includes(r.match))
    at("match", "must be one of exact, prefix, contains, regex");
  if (typeof r.pattern !== "string" || r.pattern.trim() === "" || charLength(r.pattern) > RULE_LIMITS.pattern)
    at("pattern", `must be 1–${RULE_LIMITS.pattern} characters`);
  else if (unprintable(r.pattern)) at("pattern", NO_CONTROL);
  else if (r.match === "regex") {
    try {
      new RegExp(r.pattern, "iu");
    } catch (e) {
      at("pattern", `is not a valid regular expression: ${(e as Error).message}`);
    }
  }

  const reply = r.reply as Record<string, unknown> | undefined;
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) at("reply", "must be an object with a type");
  else if (reply.type === "text") {
    if (typeof reply.text !== "string" || reply.text.trim() === "" || charLength(reply.text) > RULE_LIMITS.text)
      at("reply.text", `must be 1–${RULE_LIMITS.text} characters`);
    else if (unprintable(reply.text)) at("reply.text", NO_CONTROL);
    if (Object.keys(reply).some((k) => k !== "type" && k !== "text")) at("reply", "a text reply has only type and text");
  } else if (reply.type === "articles") {
    const ids = reply.ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > RULE_LIMITS.ids || ids.some((i) => typeof i !== "string" || !ID_PATTERN.test(i)))
      at("reply.ids", `must be 1–${RULE_LIMITS.ids} article ids`);
    if (Object.keys(reply).some((k) => k !== "type" && k !== "ids")) at("reply", "an articles reply has only type and ids");
  } else if (reply.type === "tag") {
    if (typeof reply.tag !== "string" || !TAG_PATTERN.test(reply.tag)) at("reply.tag", "must match [a-z0-9]{1,16}");
    if (Object.keys(reply).some((k) => k !== "type" && k !== "tag")) at("reply", "a tag reply has only type and tag");
  } else at("reply.type", "must be text, articles or tag");
  if (r.inbox !== undefined && typeof r.inbox !== "boolean") at("inbox", "must be true or false: true keeps the messages it answers in replyd inbox");

  if (problems.length) return { problems };
  return { value: { id: r.id, match: r.match, pattern: r.pattern, reply: structuredClone(reply), ...(r.inbox === true ? { inbox: true } : {}) } as Rule, problems };
}

/** A document's tags: the descriptions it gives, and those it removes (null: document.ts tagsRemoved). */
export function validateTags(raw: unknown): { value?: Tags; removed?: string[]; problems: Problem[] } {
  const problems: Problem[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problems: [{ section: "tags", field: "tags", reason: "must be an object of tag → one-line description (null removes one)" }] };
  }
  const out: Tags = {};
  const removed: string[] = [];
  for (const [tag, desc] of Object.entries(raw)) {
    if (!TAG_PATTERN.test(tag)) problems.push({ section: "tags", field: tag, reason: "tag must match [a-z0-9]{1,16}" });
    else if (desc === null) removed.push(tag);
    else if (typeof desc !== "string" || /[\r\n]/.test(desc) || unprintable(desc) || charLength(desc) > RULE_LIMITS.tagDescription)
      problems.push({ section: "tags", field: tag, reason: `description must be one line of at most ${RULE_LIMITS.tagDescription} characters, without control characters (null removes the tag's description)` });
    else out[tag] = desc;
  }
  return problems.length ? { problems } : { value: out, ...(removed.length ? { removed } : {}), problems };
}

export function validateTexts(raw: unknown): { value?: Texts; problems: Problem[] } {
  const problems: Problem[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { problems: [{ section: "texts", field: "texts", reason: "must be an object" }] };
  }
  const out: Texts = {};
  for (const [key, text] of Object.entries(raw)) {
    if (!(TEXT_KEYS as readonly string[]).includes(key))
      problems.push({ section: "texts", field: key, reason: `unknown text; known: ${TEXT_KEYS.join(", ")}` });
    else if (typeof text !== "string" || text.trim() === "" || charLength(text) > RULE_LIMITS.text)
      problems.push({ section: "texts", field: key, reason: `must be 1–${RULE_LIMITS.text} characters` });
    else if (unprintable(text)) problems.push({ section: "texts", field: key, reason: NO_CONTROL });
    else out[key as TextKey] = text;
  }
  return problems.length ? { problems } : { value: out, problems };
}
