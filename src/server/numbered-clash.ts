/**
 * A code the welcome or help text tells followers to send that a numbered list takes as a place: a
 * list of answers holding an article without a code is numbered 1, 2, 3 (wechat/answering/lists.ts),
 * and a number sent right after it picks that entry (questions.ts pickOr). "Or send a number: 3
 * Prices" then got a list's third entry — a bike share's walkthrough, whose help-centre export held
 * no codes. Said by health and by the write that makes it so; which one the follower meant, only the
 * operator can settle: a code for every article (a list is then labelled by its codes), or codes
 * past the list's places.
 */
import { ANSWERS } from "../ranking/choice.ts";
import { tellsToSend } from "../ranking/told-codes.ts";
import type { AppContext } from "./context.ts";
import { TOLD_TEXTS } from "./write-warnings.ts";
import { LABEL_CODE_CHARS } from "../wechat/answering/ranked-reply.ts";

export function numberedCodeClash(ctx: Pick<AppContext, "read">): string[] {
  // No code, or one too long to label an entry (a review: long codes had silenced the warning, the list still numbered).
  const codeless = ctx.read.articles.unlabelledLive(LABEL_CODE_CHARS);
  if (!codeless) return [];
  const texts = ctx.read.content.texts();
  const out: string[] = [];
  for (const key of TOLD_TEXTS)
    for (let n = 1; n <= ANSWERS.listed; n++) {
      const code = String(n);
      const article = tellsToSend(texts[key] ?? "", code) ? ctx.read.articles.getLiveByCode(code) : null;
      if (article)
        out.push(
          `the ${key} text tells followers to send "${code}" (${article.id}), and ${codeless} article${codeless === 1 ? " has" : "s have"} no code of at most ${LABEL_CODE_CHARS} characters, so a list of answers holding one is numbered 1–${ANSWERS.listed}: "${code}" sent right after such a list picks its entry ${code}, not ${article.id} — give every article a code of at most ${LABEL_CODE_CHARS} characters (a list is then labelled by its codes), or tell followers codes past ${ANSWERS.listed}`,
        );
    }
  return out;
}
