/** A follower's turn of their conversation, as kept (conversation.ts) and read (reading.ts, sent-apart.ts). */
export interface Turn {
  /** The message's dedupe key, hashed (message.ts dedupeKey): a redelivery replaces its turn, never adds one. */
  key: string;
  /** When it was answered (the clock's epoch ms). */
  at: number;
  /** The question as ranked: the follower's text; for "another" and a pick, the question before. */
  text: string;
  /** The questions it was read with, newest first (a follow-up's: the turn before, and the one that followed); none when it stood alone. */
  earlier: string[];
  /** The articles offered for this question so far, in order ("another" leaves them out). */
  offered: string[];
  /** The articles this reply showed, in its order (a pick takes one of them). */
  shown: string[];
  /**
   * Its list showed the articles' codes, and links for those without, but no numbers of its own (a
   * tag's list, lists.ts): a code it shows, sent next, is that entry; another number a place in it
   * (questions.ts `pickOr`).
   */
  byCode?: boolean;
  /** The entries of its list picked since, in order ("第二个"): "换一个" next is the entry after the last of them (reading.ts). */
  picked?: string[];
  /** The article a code sent (sent-apart.ts): its title is no question — "换一个" after it has nothing to take the next of. */
  coded?: true;
  /**
   * The article the follower read when help, a greeting's welcome or a rule's reply forgot the list
   * (sent-apart.ts; `shown` is then empty): a follow-up leaning on what was said is still about it
   * (reading.ts) — "要带什么" after 游泳池怎么办卡 and 帮助 had gone to the renovation article alone, whose
   * taught question holds 要带什么 (a walkthrough).
   */
  read?: string;
}

/** The entry of `t`'s list the follower picked last. */
export const lastPicked = (t: Turn): string | undefined => t.picked?.[t.picked.length - 1];

/** The article `t`'s follower reads: the entry picked last from its list, or the first it showed; none once help or a rule forgot the list (`read` then keeps it). */
export const articleRead = (t: Turn): string | undefined => (t.shown.length ? (lastPicked(t) ?? t.shown[0]) : undefined);
