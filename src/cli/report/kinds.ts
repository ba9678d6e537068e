/**
 * How `replyd report` names and colours each kind of answer (server/report/figures.ts), in the
 * order it shows them: what answered the follower, what did not, what needs no answer.
 */
export interface KindLook {
  kind: string;
  label: string;
  /** Its colour in the HTML page's charts. */
  colour: string;
  group: "answered" | "unanswered" | "neither";
}

export const KINDS: readonly KindLook[] = [
  { kind: "rule", label: "rule", colour: "#1b7837", group: "answered" },
  { kind: "code", label: "article code", colour: "#5aae61", group: "answered" },
  { kind: "tag", label: "tag list", colour: "#a6dba0", group: "answered" },
  { kind: "help", label: "help", colour: "#7fbf7b", group: "answered" },
  { kind: "answer", label: "ranked article alone", colour: "#2166ac", group: "answered" },
  { kind: "answers", label: "ranked list", colour: "#4393c3", group: "answered" },
  { kind: "search", label: "word search", colour: "#92c5de", group: "answered" },
  { kind: "pick", label: "picked from a list", colour: "#d1e5f0", group: "answered" },
  { kind: "ai", label: "generated answer", colour: "#762a83", group: "answered" },
  { kind: "fallback", label: "fallback: nothing matched", colour: "#d6604d", group: "unanswered" },
  { kind: "not_found", label: "nothing found (s …, another)", colour: "#f4a582", group: "unanswered" },
  { kind: "search_busy", label: "too busy to search", colour: "#b2182b", group: "unanswered" },
  { kind: "ai-pending", label: "late generated answer", colour: "#fdb863", group: "unanswered" },
  { kind: "welcome", label: "welcome", colour: "#bababa", group: "neither" },
  { kind: "courtesy", label: "thanks, greeting", colour: "#c7c7c7", group: "neither" },
  { kind: "media", label: "photo, location, link (inbox)", colour: "#999999", group: "neither" },
  { kind: "none", label: "event, no reply", colour: "#d9d9d9", group: "neither" },
  { kind: "other", label: "other", colour: "#666666", group: "neither" },
];

/** The kinds a report has counts of, in KINDS' order. */
export const kindsIn = (counts: Record<string, number>): KindLook[] => KINDS.filter((k) => (counts[k.kind] ?? 0) > 0);
