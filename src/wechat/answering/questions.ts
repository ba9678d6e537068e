/**
 * A follower's question answered from the account's articles (docs/answers.md), read in their
 * conversation (reading.ts, conversation.ts): the ranking's choice, else the word search of titles
 * and keywords, else the fallback text; the turn it makes kept for their next message.
 */
import { needsPerson } from "../../ranking/needs-person.ts";
import type { TextKey } from "../../doc/rule.ts";
import type { ReadModel } from "../../store/read-model.ts";
import { sourcesOf } from "../../llm/prompt.ts";
import { answerReply, entryLabels, loggedAnswer, news, numberedLabels } from "./ranked-reply.ts";
import { CONVERSATION, turnTime, type Conversations, type Turn } from "./conversation.ts";
import { pickedFromList, read, type Reading } from "./reading.ts";
import { nextTurn, offer } from "./reading-turn.ts";
import { MAX_INPUT } from "./regex.ts";
import { courtesyOrPraise } from "../../ranking/courtesy.ts";
import { leansFewWords } from "../../ranking/cues.ts";
import { bareNumber } from "../../ranking/picks.ts";
import { tellsToSend } from "../../ranking/told-codes.ts";
import { partsOf } from "../../ranking/parts.ts";
import { ANSWERS, choose, type Choice } from "../../ranking/choice.ts";
import type { RankedArticle } from "../../ranking/types.ts";
import { taughtOf } from "./taught.ts";
import { ledRead } from "./reading-rules.ts";
import type { Decision, ResponderOptions } from "./decision.ts";

/** Who asks, and the message's key as the conversation knows it (null: read alone, nothing remembered). */
export interface Asker {
  from: string;
  key: string | null;
}

export class Questions {
  private readonly forModel: boolean;
  private readonly conversations: Conversations | null;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly store: ReadModel,
    /** One of the operator's texts as the answer (responder.ts). */
    /** `said`: the follower's message (replyd's own texts answer in its language). */
    private readonly says: (key: TextKey, unmatched: boolean, said: string) => Decision,
    opts: ResponderOptions,
  ) {
    this.forModel = opts.forModel ?? false;
    this.conversations = opts.conversations ?? null;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
  }

  /**
   * The account's articles ranked for the follower's words (docs/answers.md), read in the
   * follower's conversation (reading.ts): one article when it is clearly ahead, else up to three,
   * else the word search of titles and keywords (which also covers the articles a rebuilding index
   * has not reached), else the fallback text. Logged as answer:<id>, answers:<id>,<id>…, search,
   * or the fallback with the articles considered, prefixed followup: or another: when read so;
   * pick:<id> for an entry of the list before. The rankings and the word search share the
   * question's one deadline, and wait in the follower's turn (store/model/searcher.ts): when it
   * passes, the follower gets the fallback text.
   */
  async answer(question: string, nothing: "fallback" | "not_found", asker: Asker, known?: readonly Turn[]): Promise<Decision> {
    const asking = this.store.searcher.asking(asker.from);
    const turns = known ?? (await this.turnsOf(asker));
    const reading = await read(question, turns, (q) => this.store.searcher.rank(q, asking));
    // Urgent, a death, money taken twice, no one answering, a complaint: answered as any message, and in the inbox too (ranking/needs-person.ts).
    const person = needsPerson(question);
    const remember = (shown: readonly string[], d: Decision, pickedTitle?: string) =>
      this.remember(asker, reading, turns, shown, { ...d, reading, ...(person && d.reply !== null && !d.unmatched ? { unmatched: true, person } : {}) }, pickedTitle);
    if (reading.how === "pick") {
      const picked = this.store.articles.get(reading.id);
      if (!picked || picked.deleted) return remember([], this.says(nothing, true, question));
      return remember([picked.id], { reply: { type: "news", articles: [news(picked)] }, answer: `pick:${picked.id}`, unmatched: false }, picked.title);
    }
    const ranked = reading.ranked;
    // Too many questions waiting: answered at once, listed in the inbox like any unmatched text.
    if (ranked === "busy") return { ...this.says(nothing, true, question), answer: "search_busy" };
    // Thanks, an acknowledgement, a greeting, an emoji ("谢谢", "在吗", "👍"; ranking/courtesy.ts): no
    // question, whatever an article holds of its words ("在不在" found an article by 不), and not in
    // the inbox. "I did not understand" would be wrong: a greeting gets the welcome text (how to ask),
    // thanks nothing at all — unless the operator wrote a rule for it. After `s`, the search said nothing.
    // No turn of the follower's: what follows is read as if it had not been sent — "and on Sundays?"
    // after "thanks" follows the question before, a new follower's question after "你好" stands alone
    // (it had been logged a follow-up of the greeting); a greeting's welcome text leaves no list to
    // pick from (responder.ts movedOn).
    const courtesy = reading.how === "alone" ? courtesyOrPraise(question) : null;
    if (courtesy) {
      const reply = nothing === "not_found" ? this.says(nothing, false, question) : courtesy === "opens" ? this.says("welcome", false, question) : { reply: null, unmatched: false };
      return { ...reply, answer: "courtesy" };
    }
    const how = reading.how === "alone" ? "" : `${reading.how}:`;
    // Articles that share only a character or two with the question (no word of it: ranking/score.ts) are no source for a model either.
    // The message as taught to an article: that article alone (taught.ts), however close its
    // neighbours rank — and no model asked to write from them: the operator decided.
    // Not a few words leaning on the question before, read with it, taught word for word: what they
    // ask of is that question's, whatever they were taught for after another (要带什么, taught to the
    // claims after a claims question, had sent the claims to followers asking of the annual
    // inspection, the first service and the courtesy car: a car dealer's walkthrough). Alone, they
    // are taught still; a title or a keyword they are names its article (reading.ts says the same).
    const asTaught = reading.how !== "another" && ranked ? taughtOf(question, ranked.articles, this.store.articles) : null;
    // A heading a body asks ("How do I pay?") is the account's writing, not the operator's word on these words: while the
    // follower reads another article, the ranking's choice stands (after the deposit's card, "how do I pay?" had got the
    // rent's article alone, where the list had offered both: a review).
    const readNow = asTaught !== null && "article" in asTaught && asTaught.by === "heading" && turns[0] ? ledRead(turns[0]) : undefined;
    const otherHeading = readNow !== undefined && asTaught !== null && "article" in asTaught && asTaught.article.id !== readNow;
    const taught = otherHeading || (asTaught && reading.how === "followup" && leansFewWords(question) && ("deleted" in asTaught || asTaught.by === "question")) ? null : asTaught;
    // Taught to an article deleted since: nothing, and in the inbox for the operator to teach anew.
    if (taught && "deleted" in taught) return remember([], { ...this.says(nothing, true, question), answer: `${how}${nothing}` });
    const sources = this.forModel && !taught ? sourcesOf((ranked?.articles ?? []).filter((a) => a.word)) : [];
    const generate = sources.length ? { generate: { question: reading.asked, sources } } : {};
    const offered: Choice<RankedArticle> = taught ? { kind: "one", article: taught.article, margin: 0 } : offer(reading);
    // Sure of one, for a message of two questions or more: what its other questions are each sure of,
    // listed after it ("物业费怎么交 能开发票吗" had got the payment article alone).
    const beside = offered.kind === "one" && !taught && reading.how === "alone" ? await this.partsAnswered(question, asking, true, 2) : null;
    const more = offered.kind === "one" ? (beside?.articles.filter((a) => a.id !== offered.article.id) ?? []) : [];
    const choice: Choice<RankedArticle> = offered.kind === "one" && more.length ? { kind: "list", articles: [offered.article, ...more].slice(0, ANSWERS.listed) } : offered;
    if (choice.kind === "one") return remember([choice.article.id], { reply: answerReply(choice), answer: `${how}${loggedAnswer(choice)}`, unmatched: false, margin: choice.margin, ...generate });
    if (choice.kind === "list") {
      const ids = choice.articles.map((a) => a.id);
      return remember(ids, { reply: answerReply(choice, entryLabels(ids, this.codeOf)), answer: `${how}${loggedAnswer(choice)}`, unmatched: false, ...generate });
    }
    // Nothing left to offer: said so, not the fallback ("I did not understand") — in the inbox, its
    // question not answered; not when it asked another of nothing, which leaves no question to
    // answer or teach (a bare 换一个 had stood in a pet hospital's inbox, teach refusing it).
    if (reading.how === "another") return remember([], { ...this.says("not_found", reading.ofNothing !== true, question), answer: "another:not_found" });
    // Several questions in one message: the articles its parts are each sure of, in the inbox too
    // when a part got none (a walkthrough's student asked of 宿舍, 接机 and the first week at once).
    // Two asking parts at least: one question told with its circumstances is the whole message's to
    // answer — its asking part alone, a few words, was "sure" of whatever held one of them ("…the
    // phone still hasnt arrived, who do I chase, you or the courier?" got the insurance claim
    // article alone, on "courier"; Session 51: two single wrong articles and a miss of 21 sets, no
    // right one, went to the fallback).
    const parts = reading.how === "alone" ? await this.partsAnswered(question, asking, false, 2) : null;
    if (parts && parts.articles.length) {
      const ids = parts.articles.map((a) => a.id);
      const c = parts.articles.length === 1 ? ({ kind: "one", article: parts.articles[0] as RankedArticle, margin: 0 } as const) : ({ kind: "list", articles: parts.articles } as const);
      return remember(ids, { reply: answerReply(c, entryLabels(ids, this.codeOf)), answer: loggedAnswer(c), unmatched: parts.unanswered > 0, ...generate });
    }
    const words = question.slice(0, MAX_INPUT).split(/\s+/).filter(Boolean);
    const found = await this.store.searcher.search(words, asking);
    if (found === "busy") return { ...this.says(nothing, true, question), answer: "search_busy" };
    const best = found.id === null ? null : this.store.articles.get(found.id);
    if (best && !best.deleted) return remember([best.id], { reply: { type: "news", articles: [news(best)] }, answer: `${how}search`, unmatched: false, ...generate });
    // A number that is no code, picks nothing and no title or keyword holds ("9": a code the welcome
    // text told, deleted since): no question, said so as a pick of nothing is — it had got the
    // fallback past 5, while `replyd rm` said not_found (a walkthrough). "12306" titled is found above.
    if (reading.how === "alone" && bareNumber(question)) return remember([], { ...this.says("not_found", true, question), answer: "not_found" });
    const considered = (ranked?.articles ?? []).slice(0, 3).map((a) => a.id);
    return remember([], { ...this.says(nothing, true, question), answer: `${how}${considered.length ? `${nothing}:${considered.join(",")}` : nothing}`, ...generate });
  }

  /**
   * `text` is an article's code and may pick from a list ("2"): when the last thing the follower was
   * shown is a list holding an entry there (responder.ts forgets the list when a code, help or a rule
   * answers them), the entry — unless the list shows `text` as an entry's code, which is then what
   * was read ("3  主厅地址"); else `code`, the code's article. So after a list labelled "7, 3, 9" or
   * a tag's list of codes and "·", "2" is its second entry (two walkthroughs' followers sent "2" so,
   * and got the article whose code is 2).
   */
  async pickOr(text: string, asker: Asker, code: Decision): Promise<Decision> {
    const turns = await this.turnsOf(asker);
    const last = turns[0];
    if (!last) return code;
    const labels = last.byCode ? last.shown.map(this.codeOf) : entryLabels(last.shown, this.codeOf);
    const typed = text.normalize("NFKC").trim().toLowerCase();
    // A code the list shows is that entry. One it does not show is a place in it — two walkthroughs'
    // followers, sent a tag's list of codes, replied "2" for its second —, unless the welcome or help
    // text tells followers to send it: then it is that code ("send 3 for prices" had got a list's third
    // entry: three walkthroughs, a theatre, a ski resort, a wedding venue). A numbered list's numbers are its places.
    const texts = this.store.content.texts();
    const told = [texts.welcome, texts.help].some((t) => !!t && tellsToSend(t, typed));
    const readAsCode = !numberedLabels(labels.map((l) => l ?? "")) && (told || labels.some((l) => l?.toLowerCase() === typed));
    const picked = readAsCode ? undefined : pickedFromList(text, last);
    // An entry deleted since is nothing to give: the live code is something.
    return picked && this.store.articles.get(picked)?.deleted === false ? this.answer(text, "fallback", asker, turns) : code;
  }

  /**
   * A list of articles the follower was sent that is no ranking's (a tag's, a rule's: responder.ts),
   * kept as their turn so that "第二个" picks from it, `about` (the tag's description) as what they
   * asked: a follow-up is read with it, "换一个" ranks it for the articles not listed.
   */
  async listed(asker: Asker, about: string, ids: readonly string[], d: Decision): Promise<Decision> {
    if (!this.conversations || asker.key === null) return d;
    const turns = await this.turnsOf(asker);
    return this.keep(this.conversations, asker.from, { key: asker.key, at: turnTime(turns, this.now()), text: about, earlier: [], offered: ids.slice(0, CONVERSATION.offered), shown: [...ids], byCode: true }, turns, d);
  }

  /**
   * Each part of a message of several questions that asks (ranking/parts.ts) ranked alone: the
   * articles they are sure of, once each, and how many got none (`spaced`: parted at a space between
   * Chinese characters too, ranking/parts.ts); null when fewer than `least` parts ask — beside a sure
   * answer, two: "猫三联 多少钱一针" is one question, its subject before the space (a review: the asking
   * part alone was sure of the dog's vaccines, listed after the cat's). A part that only tells the
   * circumstances (信号太差了 我家在三楼) is not ranked: it found articles by chance.
   */
  private async partsAnswered(question: string, asking: ReturnType<ReadModel["searcher"]["asking"]>, spaced = false, least = 1): Promise<{ articles: RankedArticle[]; unanswered: number } | null> {
    const parts = partsOf(question.slice(0, MAX_INPUT), spaced).filter((p) => p.asks);
    if (parts.length < least) return null;
    const articles: RankedArticle[] = [];
    let unanswered = 0;
    for (const { text } of parts) {
      const ranked = await this.store.searcher.rank({ text }, asking);
      const c = ranked && ranked !== "busy" ? choose(ranked.articles) : null;
      if (c?.kind !== "one") unanswered++;
      else if (!articles.some((a) => a.id === c.article.id)) articles.push(c.article);
    }
    return { articles: articles.slice(0, ANSWERS.listed), unanswered };
  }

  /** An article's live code, for a list's labels. */
  private readonly codeOf = (id: string): string | null => {
    const a = this.store.articles.get(id);
    return a && !a.deleted ? a.code : null;
  };

  /** Whether the follower's last turn offered articles that "another" or a pick would go on from. */
  async continuesList(asker: Asker): Promise<boolean> {
    return ((await this.turnsOf(asker))[0]?.offered.length ?? 0) > 0;
  }

  /** The follower's last turns within the window (none when the conversation cannot be read: the message is then read alone). */
  private async turnsOf(asker: Asker): Promise<Turn[]> {
    if (!this.conversations || asker.key === null) return [];
    try {
      return await this.conversations.recent(asker.from, asker.key);
    } catch (e) {
      this.log(`a follower's conversation could not be read (the message is read alone): ${(e as Error).message}`);
      return [];
    }
  }

  /** The turn this answer makes, kept before the answer goes out: the next message may come at once, to another instance. */
  private async remember(asker: Asker, reading: Reading, turns: readonly Turn[], shown: readonly string[], d: Decision, pickedTitle?: string): Promise<Decision> {
    if (!this.conversations || asker.key === null) return d;
    return this.keep(this.conversations, asker.from, nextTurn(reading, turns, asker.key, turnTime(turns, this.now()), shown, pickedTitle), turns, d);
  }

  private async keep(conversations: Conversations, from: string, turn: Turn, turns: readonly Turn[], d: Decision): Promise<Decision> {
    try {
      await conversations.add(from, turn, turns);
    } catch (e) {
      this.log(`a follower's conversation could not be kept (their next message is read alone): ${(e as Error).message}`);
    }
    return d;
  }
}
