import { articleJson, LIMITS, questionForm, withinChars, charLength } from "../article/article.ts";
import { heldItem } from "./append.ts";
import { NO_CONTROL, unprintable } from "../article/text-rules.ts";
import { CONTENT } from "../article/fields.ts";
import { badRequest, conflict, notFound } from "../base/errors.ts";
import { asksAnother } from "../ranking/another.ts";
import { leansOnBefore, saidBetweenQuestions } from "../ranking/cues.ts";
import { searchedWords } from "../ranking/picks.ts";
import { continuesQuestion } from "../ranking/continuation.ts";
import { idHint, liveByIdOrCode } from "./id-hint.ts";
import { afterItsArticle, byPronoun, followUpOnly, leaningShort, leansAsSent, namesNothing, ofItAlone } from "./teach-leaning.ts";
import { shellWord } from "../base/shell-word.ts";
import { withoutOpening } from "../ranking/courtesy.ts";
import { termsOf } from "../ranking/words.ts";
import { invalidArticle } from "./admin.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { askedAnotherOf, MOST_PASSED, questionBefore, textOf } from "./asked-another.ts";
import { CONVERSATION } from "../wechat/answering/conversation.ts";
import { beforeTeaching, movedJson, movedTo } from "./teach-moves.ts";
import { offeredBy, offeredIn, offeredNow, offerOf } from "./answered-now.ts";
import { once } from "../base/once.ts";
import { loggedAnswer } from "../wechat/answering/ranked-reply.ts";
import { answeredByAnother, namesOthers, rankingFor } from "./taught-elsewhere.ts";

/**
 * POST /api/cli/teach (admin keys): a follower's text, named by its message in the log (inbox=),
 * added to the questions of the article that answers it (id=), so that followers asking it get that
 * article alone and something close finds it first (docs/answers.md "Teaching"). With as=, the operator's own
 * phrasing of that message is taught instead: the need in words that name it, without the message's
 * circumstances or the everyday words that would pull other questions. Decided in the writer's
 * transaction against the article as stored: a question it holds already (in any case) is refused,
 * as is one past the limits, and nothing is written.
 */
export async function postTeach(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["inbox", "id", "as"]);
  if (req.files.size) throw badRequest("teach takes form fields only");
  const seq = f.int("inbox", 1, Number.MAX_SAFE_INTEGER, 0);
  if (!seq) throw badRequest('"inbox" is required: the number of a follower\'s message in the log (replyd inbox)');
  const named = f.require("id");
  // None live so named: the id as given, said as such below (deleted, or no article).
  const id = liveByIdOrCode(ctx.read.articles, named)?.id ?? named;

  // The log must hold every message that arrived so far: the named entry may be the newest.
  await ctx.write.log.settled();
  const logged = await ctx.write.log.entry(seq);
  if (!logged) throw notFound(`no message ${seq} in the log (it may have been pruned; replyd inbox lists those there are)`, "no_message");
  if (logged.direction !== "in") throw badRequest(`message ${seq} is a reply the account sent, not a follower's message`, "not_a_follower_message");
  // "换一个 / another" says the articles offered did not answer the question before it: that question
  // is what to teach (the inbox lists "another" with nothing left, whose words teach nothing).
  const askedOf = await askedAnotherOf(ctx.write.log, logged);
  const entry = askedOf ?? logged;
  // An explicit search ("s 自修室几点开") is taught as the words searched, as they were answered.
  // A voice message the platform recognised is its words, as the callback answered it (wechat.md §3).
  const written = entry.type === "text" || entry.type === "voice" ? (entry.content ?? "") : "";
  // Without the greeting it opens with ("Hi, do i need to book?"): the question is the rest, and
  // taught so it is found sent with any greeting or none (wechat/answering/taught.ts reads both).
  const said = questionForm(searchedWords(written.trim()) ?? written);
  const message = questionForm(withoutOpening(said));
  if (!message) throw badRequest(`message ${entry.seq} is ${entry.type === "event" ? `an event (${entry.event ?? "?"})` : `a message of type ${entry.type}`}, not a follower's text: only what a follower wrote can be taught`, "not_a_question");
  // "谢谢", "换一个", "2": what followers say between questions is no phrasing of one — nor the
  // message a phrasing is taught for (a mistyped SEQ, most likely).
  if (saidBetweenQuestions(message))
    throw badRequest(
      `message ${entry.seq} ("${message.slice(0, 40)}") is what followers say between questions, not a question an article answers${asksAnother(message) ? `: it asks for another answer, and the follower's messages before it hold no question within ${CONVERSATION.windowMs / 60_000} minutes and ${MOST_PASSED} messages — teach the question's own message (replyd inbox --all lists them)` : ""}`,
      "not_a_question",
    );
  const given = f.get("as");
  const what = given !== undefined ? "the phrasing given (as=)" : askedOf ? `message ${entry.seq} (message ${seq} asked for another answer to it)` : `message ${seq}`;
  let text = message;
  if (given !== undefined) {
    // Control characters are refused before white space is folded, as the field refuses them: a
    // vertical tab folded into a space would hide one.
    if (unprintable(given)) throw invalidArticle([{ field: "questions", reason: `${what} ${NO_CONTROL}` }]);
    text = questionForm(given);
    if (!text) throw badRequest('"as" is empty: give the phrasing to teach, or leave it out to teach the message itself');
    if (saidBetweenQuestions(text)) throw badRequest(`${what} ("${text.slice(0, 40)}") is what followers say between questions, not a question an article answers`, "not_a_question");
  }
  const terms = termsOf(text);
  // Said before "no word the ranking reads" ("how much is it"): teach-leaning.ts says why each.
  if (followUpOnly(text))
    throw badRequest(
      `${what} ("${text.slice(0, 40)}") names nothing it asks about — a follow-up's few words, or asking only what something costs — and only makes sense after a question: taught, every follower sending it would get this article, whatever they had asked. Teach the question in words that name it: replyd teach ${seq} ${named} --as "…"`,
      "leans_on_before",
    );
  if (namesNothing(text))
    throw badRequest(
      `${what} ("${text.slice(0, 40)}") only asks how long, how much, when or what to bring, naming nothing it asks about: taught, every follower sending it would get this article, whatever they had asked. Teach the question in words that name it: replyd teach ${seq} ${named} --as "…"`,
      "leans_on_before",
    );
  // Words the ranking reads none of ("在吗在吗？？？"): a follower sending them is never matched to
  // the article, so teaching them would promise what no answer keeps.
  if (!terms.length) throw badRequest(`${what} ("${text.slice(0, 40)}") holds no word the ranking reads (only words such as 在, 吗, "is", "the"): no follower's message is matched to an article by it`, "not_a_question");
  // Said in the headline as what it is: "the article is invalid" had been the headline (a theatre's walkthrough).
  if (!withinChars(text, LIMITS.question))
    throw invalidArticle(
      [{ field: "questions", reason: `${what} is ${charLength(text)} characters and a question at most ${LIMITS.question}: give a shorter phrasing of it with replyd teach ${seq} ${id} --as "…"` }],
      `${what} is longer than a question may be; nothing was taught`,
    );

  // Words another article answers already, as taught, titled or as a keyword ("要带什么", a keyword
  // of the entry rules, taught to the deep-water test: every follower sending it got the test —
  // a swimming pool's walkthrough): said, not moved, until the operator takes them from that one.
  const target = ctx.read.articles.get(id);
  const ranking = target?.deleted === false ? await rankingFor(ctx, text) : null;
  const ranked = ranking?.articles ?? null;
  if (ranked && ofItAlone(text, ranked)) throw byPronounOnly(what, text, seq, named);
  const other = ranked && answeredByAnother(ctx, text, ranked, id);
  if (other)
    throw conflict(
      `${what} ("${text.slice(0, 40)}") is ${other.by === "question" ? `"${other.as}", a question taught to` : other.by === "title" ? "the title of" : `"${other.as}", a keyword of`} article "${other.id}": followers sending it get that article. ${other.by === "title" ? `To answer it with "${id}", retitle "${other.id}" (replyd set ${other.id} title=…), or teach a phrasing that says what "${id}" answers (--as "…")` : `To answer it with "${id}" instead, take it from "${other.id}" first (replyd set ${other.id} ${other.by === "keyword" ? "keywords" : "questions"}-=${shellWord(other.as)})`}`,
      "answered_by_another",
    );
  // The operator's phrasing (--as) is held to this one too: it should name the thing.
  if (ranked && byPronoun(text, ranked, id)) throw byPronounOnly(what, text, seq, named);
  const readWith = entry.answer.startsWith("followup:");
  // The follower's question just before, looked up once whatever asks.
  const questionJustBefore = once(() => questionBefore(ctx.write.log, entry));
  // That question, before words that continue it, within the conversation's window — or that lean
  // on it, when it was offered an article to lean on: after a question nothing answered, 要带什么材料
  // asks a question of its own.
  const questionLeanedOn = async (words: string) => {
    const continuing = continuesQuestion(words);
    if (!continuing && !leansOnBefore(words)) return null;
    const before = await questionJustBefore();
    return before && (continuing || offeredIn(before.answer).length) ? before : null;
  };
  // That question, when it offers this very article (teach-leaning.ts afterItsArticle): as it was
  // answered, or as it is answered now — taught since, as an operator clearing the inbox does first
  // (卡能停吗 got the fallback, was taught to the freeze article, and 怎么操作 after it was taught too: a review).
  const offeredBefore = once(async () => {
    const before = await questionJustBefore();
    const asked = before ? textOf(before) : null;
    if (!before || !target) return null;
    if (offeredIn(before.answer).includes(target.id)) return before;
    const now = asked ? await offeredNow(ctx, asked) : undefined;
    return now && offeredBy(now).includes(target.id) ? before : null;
  });
  const leanedOn = given === undefined && ranked ? await questionLeanedOn(text) : null;
  const leanedText = leanedOn ? textOf(leanedOn) : null;
  if (given === undefined && ranked && leaningShort(text, ranked, id, { readWith, afterQuestion: leanedOn !== null }))
    throw badRequest(
      `${what} ("${text.slice(0, 40)}") ${readWith ? "was read with the question before it, which says what it asks of" : `leans on the follower's question just before it (message ${leanedOn?.seq}${leanedText ? `, "${leanedText.slice(0, 40)}"` : ""}), which says what it asks of`}: taught alone, every follower sending it would get this article, whatever they had asked. Teach the question in words that name it: replyd teach ${seq} ${named} --as "…" (the same words with --as, if they are a question of its own)`,
      "leans_on_before",
    );
  if (given === undefined && ranking && target && afterItsArticle(text, ranking, target, (await offeredBefore()) !== null)) {
    const before = await offeredBefore();
    const beforeText = before ? textOf(before) : null;
    throw badRequest(
      `${what} ("${text.slice(0, 40)}") came just after the follower's question this article answers (message ${before?.seq}${beforeText ? `, "${beforeText.slice(0, 40)}"` : ""}) and names nothing of its title or keywords, nor anything no article holds: it may ask of that article only through the question before it. Taught alone, every follower sending it would get this article, whatever they had asked. Teach the question in words that name it: replyd teach ${seq} ${named} --as "…" (the same words with --as, if they are a question of its own)`,
      "leans_on_before",
    );
  }

  // What followers' other questions are offered first, to say afterwards which of them it now answers.
  const before = ranked ? await beforeTeaching(ctx, text, [seq, entry.seq]) : new Map();
  const now = new Date(ctx.clock.now()).toISOString();
  const r = await ctx.write.editArticle(id, {
    decide: (stored) => {
      if (!stored) throw notFound(`no article with id or code "${id}"${idHint(id, ctx.read.articles)}`);
      // Its questions would get the fallback (wechat/answering/taught.ts): teaching it takes an answer away.
      if (stored.deleted) throw conflict(`article "${id}" is deleted: a question taught to it gets the fallback; teach another article, or bring it back first (replyd set ${id} --undelete)`, "article_deleted");
      const held = heldItem("questions", stored.questions, text);
      if (held !== undefined) throw conflict(`article "${id}" has this question already: "${held.slice(0, 80)}"`, "already_taught");
      if (stored.questions.length >= LIMITS.questions)
        throw invalidArticle([{ field: "questions", reason: `article "${id}" has ${stored.questions.length} questions, the most it may have; replace them with replyd set ${id} questions=… first` }]);
      // The whole list checked by the field's own check, as an append is (server/append.ts).
      const checked = (CONTENT.find((f) => f.name === "questions") as (typeof CONTENT)[number]).check([...stored.questions, text]);
      if ("problem" in checked) throw invalidArticle([{ field: "questions", reason: checked.problem }]);
      return { ...stored, questions: checked.value as string[], rev: stored.rev + 1, updated_at: now };
    },
  });
  const moved = await movedTo(ctx, r.article.id, before);
  // Taught as the operator phrased it, the message's own words are still the ranking's: what they
  // get now, said (a theatre's operator taught "whats on in april" --as "what shows are on", and the
  // message itself still got the fallback, unsaid).
  // One ranking of them (the ranking reads them without their greeting, as `message` holds them).
  // Other articles' titles and keywords it writes out: lent to this one now (taught-elsewhere.ts).
  const othersNamed = ranked ? namesOthers(text, ranked, r.article.id) : [];
  const ownRanking = given !== undefined && !saidBetweenQuestions(said) ? await rankingFor(ctx, said).catch(() => null) : null;
  const own = ownRanking ? offerOf(ctx, said, ownRanking.articles) : undefined;
  // …and whether teaching them as they are would be refused as leaning on the question before.
  const ownLeans = ownRanking !== null && own !== undefined && target !== null && leansAsSent(message, ownRanking, target, { readWith, afterQuestion: (await questionLeanedOn(message)) !== null, offeredBefore: (await offeredBefore()) !== null });
  return {
    taught: true,
    seq,
    question: text,
    message: said,
    ...(askedOf ? { asked_of: askedOf.seq } : {}),
    article: articleJson(r.article),
    ...movedJson(moved),
    // Taught the article the follower asked another answer after (an operator taught the refunds the follower had turned down, unsaid: a walkthrough).
    ...(askedOf && offeredIn(askedOf.answer).includes(r.article.id) ? { turned_down: true } : {}),
    ...(given !== undefined && own !== undefined ? { message_now: own.kind === "none" ? null : loggedAnswer(own), ...(ownLeans ? { message_leans: true } : {}) } : {}),
    ...(othersNamed.length ? { names_others: othersNamed } : {}),
  };
}

/**
 * The refusal of words naming what they ask about only by a pronoun — the pronouns of the words' own
 * language (a wedding studio's operator was shown "it", "this", "them" for 这个要加钱吗).
 */
const byPronounOnly = (what: string, text: string, seq: number, named: string) =>
  badRequest(
    `${what} ("${text.slice(0, 40)}") names what it asks about only by a pronoun (${/\p{Script=Han}/u.test(text) ? '"它", "这个", "那个"' : '"it", "this", "them"'}): taught, every follower sending it would get this article, whatever they had read or asked about. Teach the question in words that name it: replyd teach ${seq} ${named} --as "…"`,
    "leans_on_before",
  );
