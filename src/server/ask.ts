/**
 * GET /api/cli/ask?q=…: what a follower sending `q` would get and why (docs/answers.md "replyd
 * ask"). The reply is the callback's own decision for that text (rules, codes, tags and help come
 * first, as for a follower); the ranking beside it is the passage index's, whatever answered.
 * Nothing is logged and no follower is messaged; a read key may ask. With generate=1 the model is
 * asked too: that takes an admin key, counts in the caps and is logged with the followers' calls.
 */
import { ANSWERS, choose, ordersByHead, type Choice, type Scored } from "../ranking/choice.ts";
import { badRequest, ReplydError } from "../base/errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import type { Inbound } from "../wechat/door/message.ts";
import type { Decision } from "../wechat/answering/decision.ts";
import type { Reading } from "../wechat/answering/reading.ts";
import { unprefixed } from "../store/log-kinds.ts";
import { Fields } from "./fields.ts";
import { ruleWarnings } from "./write-warnings.ts";
import { taughtOf, type Taught } from "../wechat/answering/taught.ts";
import { SynonymTable } from "../ranking/synonyms.ts";
import { unheldWords } from "../ranking/unheld.ts";
import type { Ranking } from "../ranking/types.ts";
import { termsOf } from "../ranking/words.ts";
import { bareNumber } from "../ranking/picks.ts";

/** A follower's text is at most 2,048 bytes (the platform's limit): a question longer is not one a follower can send. */
export const MAX_QUESTION_BYTES = 2048;

/** The choice and why, in the operator's words (docs/answers.md "What followers get"); a taught question's first (wechat/answering/taught.ts). */
const FOUND_BY_SEARCH = "the ranking offered nothing; the word search of titles and keywords found this article";

function choiceOf(c: Choice<Scored>, ranked: readonly Scored[], taught: Taught | null, answer: string, question: string): { choice: Choice<Scored>["kind"]; choice_why: string } {
  // A number alone is ranked for no follower (wechat/answering/reading.ts): what ask's own ranking would say of it is not what they get.
  if (bareNumber(question) && !answer.startsWith("rule:") && answer !== "code")
    return { choice: answer === "search" ? "one" : "none", choice_why: "a number alone is no question: an article's code, a pick from the list just sent, or an article whose title or keywords hold it (the word search); else the not_found text" };
  if (answer === "search") return { choice: "one", choice_why: FOUND_BY_SEARCH };
  if (answer === "courtesy") return { choice: "none", choice_why: "thanks, a greeting or an emoji: no question, whatever an article holds of its words (a greeting gets the welcome text, thanks no reply)" };
  if (taught && "article" in taught)
    return {
      choice: "one",
      choice_why:
        taught.by === "title"
          ? `titled: this question is "${taught.article.id}"'s title, or the question it opens with, and no other article's`
          : taught.by === "heading"
            ? `a heading: this question is one "${taught.article.id}"'s body asks as a heading ("${taught.as.slice(0, 60)}"), and no other article's`
            : taught.by === "keyword"
            ? `keyword: this question is one of "${taught.article.id}"'s keywords, and no other article's`
            : `taught: this question is one of "${taught.article.id}"'s questions (its record's, replyd teach or questions+=)`,
    };
  if (taught) return { choice: "none", choice_why: `taught to "${taught.deleted}", deleted since: the fallback, and it waits in the inbox to be taught anew` };
  // The whole message's choice was not what it got: its questions ranked each alone (wechat/answering/questions.ts partsAnswered).
  const got = answer.startsWith("answers:") ? "list" : answer.startsWith("answer:") ? "one" : null;
  if (got && got !== c.kind) return { choice: got, choice_why: "a message of several questions: the articles its questions are each sure of, ranked alone" };
  const why =
    c.kind === "one"
      ? c.why === "unrivalled"
        ? "sure: the articles scoring within 2× of it are none relevant (no word of the question held, or too little of it)"
        : `sure: the best scores at least ${ANSWERS.lead}× the next`
      : c.kind === "list"
        ? c.why === "behind"
          ? "the best holds too little of the question; the one after it answers it"
          : `not sure: the next scores within ${ANSWERS.lead}× of the best${c.articles[0] !== ranked[0] ? "; listed first the one whose title, keywords and questions hold more of the question" : ""}`
        : c.why === "unsure"
          ? "not sure of the best, and nothing else relevant to list beside it"
          : "no article holds enough of the question";
  return { choice: c.kind, choice_why: why };
}

/** The question's words no article holds, but those read as the two words of a compound one article holds. */
function unheldOf(q: string, ranking: Ranking, synonyms: SynonymTable | null): string[] {
  const split = new Set((ranking.split ?? []).flatMap((w) => termsOf(w)));
  return unheldWords(q, ranking.terms.map((t) => t.term), synonyms).filter((t) => !split.has(t));
}

export async function getAsk(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["q", "generate", "after", "before"]);
  const generate = f.bool("generate") ?? false;
  if (generate && !ctx.generator) throw new ReplydError("ai_not_configured", "no model is configured: start replyd serve with --ai-url and --ai-model (docs/answers.md)");
  // A call spends the followers' budget and is logged with their calls: an admin's to make.
  if (generate && req.key.scope !== "admin") throw new ReplydError("forbidden", `the key "${req.key.appkey}" is read-only; asking the model (generate=1) needs an admin key`);
  const q = f.require("q").trim();
  if (!q) throw badRequest('"q" must hold a question');
  if (Buffer.byteLength(q) > MAX_QUESTION_BYTES) throw badRequest(`"q" may hold at most ${MAX_QUESTION_BYTES} bytes, as a follower's message`, "text_too_long");
  const after = f.get("after")?.trim();
  if (after === "") throw badRequest('"after" must hold the follower\'s message before the question, or be left out');
  if (after !== undefined && Buffer.byteLength(after) > MAX_QUESTION_BYTES) throw badRequest(`"after" may hold at most ${MAX_QUESTION_BYTES} bytes, as a follower's message`, "text_too_long");
  // The follower's message before `after` (0.2.26): the conversation remembers two turns, and what
  // a follower got after a question and a pick ("visit", then "second", then "whats the parking
  // like") had not been seen again with one (a wedding venue's walkthrough).
  const before = f.get("before")?.trim();
  if (before !== undefined && after === undefined) throw badRequest('"before" is the message before "after": give "after" too');
  if (before === "") throw badRequest('"before" must hold the follower\'s message before "after", or be left out');
  if (before !== undefined && Buffer.byteLength(before) > MAX_QUESTION_BYTES) throw badRequest(`"before" may hold at most ${MAX_QUESTION_BYTES} bytes, as a follower's message`, "text_too_long");
  // Nobody's conversation: read alone, and nothing remembered for the next ask — or, after a
  // message (or two), read as a follower's next message is, in a conversation of its own that ends with the call.
  const { decision, reading } = await answered(ctx, q, after, before);
  const ranking = reading ? reading.ranked : await ctx.read.searcher.rank(q);
  if (ranking === "busy") throw new ReplydError("busy", "too many follower questions are waiting to be ranked; ask again in a moment");
  if (ranking === null) throw new ReplydError("busy", "ranking failed or took too long (the server's log says why)");
  // Rules this text matches that answer with nothing: passed over, so the follower gets what answers next.
  const rules = await ctx.rules.rulesMatching(q);
  return {
    question: q,
    ...(after === undefined ? {} : { after, ...(before === undefined ? {} : { before }), read_as: decision.reading?.how ?? "alone", ...(decision.reading?.how === "alone" && decision.reading.moved ? { moved: true } : {}), ...(decision.reading?.how === "alone" && decision.reading.why ? { alone_why: decision.reading.why } : {}) }),
    answer: decision.answer,
    rule_warnings: ruleWarnings(ctx, rules),
    reply: decision.reply,
    ...(reading ? readChoiceOf(reading, decision.answer) : choiceOf(choose(ranking.articles, ordersByHead({ text: q })), ranking.articles, taughtOf(q, ranking.articles, ctx.read.articles), decision.answer, q)),
    terms: ranking.terms,
    // A complaint ranked on the complaints article's word alone: what was ranked, and no "not held" —
    // the question's own words were not looked up.
    ...(ranking.rankedAs === undefined ? {} : { ranked_as: ranking.rankedAs }),
    // The question's words no article holds, nor a synonym group of them: they count against every article's share of it.
    // Not of "another", whose ranking is the question before's.
    // A compound read as two words one article holds (compounds.ts): named so, not as held by none.
    ...(ranking.split ? { split: ranking.split } : {}),
    ...(reading?.how === "another" || ranking.rankedAs !== undefined ? {} : { unheld: unheldOf(q, ranking, SynonymTable.of(ctx.read.content.synonyms(), termsOf)) }),
    postings_read: ranking.postings,
    candidates: ranking.candidates,
    articles: ranking.articles,
    // What a model (serve --ai-url) would be given, and with generate=1 what it writes and what the checks make of it.
    ...(ctx.generator
      ? {
          model: decision.generate
            ? {
                sources: decision.generate.sources,
                ...(generate ? await ctx.generator.preview(decision.generate.question, decision.generate.sources, `replyd-ask:${req.key.appkey}`) : {}),
              }
            : { sources: [], note: "this text does not reach the model (a rule, code, tag or help answers it, or no article holds a word of it)" },
        }
      : {}),
  };
}

/** A follower's text message from nobody (`replyd ask`), `n` seconds after `at`. */
const asked = (content: string, at: number, n: number): Inbound => ({ type: "text", content, from: "replyd-ask", to: "replyd", createTime: at + n, msgId: `replyd-ask-${n}`, fields: {} });

/**
 * What a follower sending `q` gets: read alone (`after` undefined), or as their next message after
 * `after` (the responder's aside: a conversation of its own); `reading`, how it was read then, when
 * the conversation read it other than alone (a follow-up, "another") — its ranking is what to show.
 */
async function answered(ctx: AppContext, q: string, after: string | undefined, before?: string): Promise<{ decision: Decision; reading: Exclude<Reading, { how: "pick" }> | null }> {
  const at = Math.floor(ctx.clock.now() / 1000);
  if (after === undefined) return { decision: await ctx.responder.respond(asked(q, at, 0), false), reading: null };
  const aside = ctx.responder.aside();
  if (before !== undefined) await aside.respond(asked(before, at - 2, 0));
  await aside.respond(asked(after, at - 2, 1));
  const decision = await aside.respond(asked(q, at - 2, 2));
  const reading = decision.reading;
  return { decision, reading: reading && reading.how !== "pick" && reading.how !== "alone" ? reading : null };
}

/** The choice of a message read with the one before it, in the operator's words. */
export function readChoiceOf(reading: Exclude<Reading, { how: "pick" }>, answer: string): { choice: Choice<Scored>["kind"]; choice_why: string } {
  const plain = unprefixed(answer);
  // Found by the word search after the conversation's ranking offered nothing: one article (it had said "none", a review).
  if (plain === "search") return { choice: "one", choice_why: `${reading.how === "another" ? "asks for another answer" : "a follow-up"}: ${FOUND_BY_SEARCH}` };
  const choice = plain.startsWith("answers:") ? "list" : plain.startsWith("answer:") ? "one" : "none";
  if (reading.how === "another")
    return {
      choice,
      choice_why:
        // "Not that one, i use the website": ranked with the words after it, the question before as their context.
        reading.meant !== undefined
          ? "asks for another answer, saying what it means: its words after it ranked with the question before, the articles it was offered left out"
          : "asks for another answer: the question before ranked again, the articles it was offered left out, a list while another holds a word of it",
    };
  return { choice, choice_why: `a follow-up: ranked with the message before it, that message's words weighing less (docs/answers.md "Follow-ups")${reading.how === "followup" && reading.listed ? "; a list, its own words sure of nothing" : ""}` };
}
