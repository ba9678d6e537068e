import { readText } from "./typed.ts";
import type { Rule, TextKey } from "../../doc/rule.ts";
import type { ReadModel } from "../../store/read-model.ts";
import { dedupeKey, MAX_NEWS_FOR_EVENT, MAX_NEWS_FOR_MESSAGE, MEDIA_TYPES, type Inbound } from "../door/message.ts";
import { news } from "./ranked-reply.ts";
import { LocalConversations, turnKey, type Conversations } from "./conversation.ts";
import { Questions, type Asker } from "./questions.ts";
import type { RegexMatcher } from "./regex.ts";
import { codeTyped, picksEntry, searchedWords, toldToSend } from "../../ranking/picks.ts";
import type { Decision, ResponderOptions } from "./decision.ts";
import { DEFAULT_TEXTS, languageOf, operatorText } from "./texts.ts";
import { articleList, helpText, HELP_WORDS, TAG_LISTED, tagDescribed, tagList } from "./lists.ts";
import { withoutEnd } from "./end-marks.ts";
import { foldedPattern, regexRulesOf, ruleArticles, rulesMatchingText } from "./rule-match.ts";
import { asksForAnother } from "../../ranking/another.ts";
import { courtesyOf } from "../../ranking/courtesy.ts";
import { needsPerson } from "../../ranking/needs-person.ts";

/** Question marks alone, however ended: asking what to do, as "？" does (HELP_WORDS). */
const ONLY_ASKED = /^[?？][\s?？.。!！~～]*$/u;

const none: Decision = { reply: null, answer: "none", unmatched: false };

/** Article titles read for the account's language (Responder.titles). */
const TITLES_READ = 20;

/** Applies `fn` now to a plain value, or later to a promise's. */
const then = <T, U>(v: T | Promise<T>, fn: (x: T) => U | Promise<U>): U | Promise<U> => (v instanceof Promise ? v.then(fn) : fn(v));

/** DESIGN §5: operator rules, then help, code, tag, search, then the fallback texts. */
export class Responder {
  private readonly conversations: Conversations | null;
  private readonly questions: Questions;
  private readonly log: (message: string) => void;
  private patterns: { of: Rule[]; folded: string[] } | null = null;

  constructor(
    private readonly store: ReadModel,
    private readonly regex: RegexMatcher,
    private readonly opts: ResponderOptions = {},
  ) {
    this.conversations = opts.conversations ?? null;
    this.log = opts.log ?? (() => {});
    this.questions = new Questions(store, (key, unmatched, said) => this.says(key, unmatched, said), opts);
  }

  /**
   * The same articles, rules and texts, remembering only the turns of the messages it is given, in
   * its own memory: `replyd ask --after` reads a question after another as a follower's conversation
   * would, and no follower's turns are read or kept.
   */
  aside(): Responder {
    return new Responder(this.store, this.regex, { ...this.opts, conversations: new LocalConversations(this.opts.now) });
  }

  /** `said`: the follower's message, whose language replyd's own text is in when the operator wrote none (texts.ts). */
  private text(key: TextKey, said = ""): string {
    const texts = this.store.content.texts();
    return operatorText(texts, key) ?? DEFAULT_TEXTS[languageOf(said, texts, () => this.titles())][key];
  }

  /** The newest articles' titles, a line each: what says the account's language when nothing else does (texts.ts). */
  private titles(): string {
    return this.store.articles.newestTitles(TITLES_READ).join("\n");
  }

  /** Answers with one of the operator's texts, logged under its name. */
  private says(key: TextKey, unmatched: boolean, said = ""): Decision {
    return { reply: { type: "text", content: this.text(key, said) }, answer: key, unmatched };
  }

  /**
   * Synchronous unless a regex rule has to run in the worker: the common message then costs no
   * promise and no deadline timer. `inConversation` false: read alone and not remembered
   * (`replyd ask`, which is nobody's conversation).
   */
  respond(m: Inbound, inConversation = true): Decision | Promise<Decision> {
    const listening = inConversation && this.conversations !== null;
    const asker: Asker = { from: m.from, key: listening ? turnKey(dedupeKey(m)) : null };
    if (m.type === "event") return listening ? then(this.onEvent(m), (d) => this.movedOn(asker, d)) : this.onEvent(m);
    if (m.type === "text" || (m.type === "voice" && m.content)) return listening ? then(this.onText(readText(m.content ?? ""), asker), (d) => this.movedOn(asker, d)) : this.onText(readText(m.content ?? ""), asker);
    // A photo, a location, a voice message unrecognised: the media text (the fallback's when
    // unwritten), and the inbox, so the operator sees what was sent and can answer it (replyd
    // reply); logged as "media", which the report counts apart from texts nothing answered.
    if (MEDIA_TYPES.includes(m.type)) return this.says("media", true);
    return none;
  }

  /**
   * Answered by a code, a tag, help, a rule or a greeting's welcome: what the follower looks at now is not the numbered
   * list a question got them before, so a number they send next is a code, not a pick from it
   * (docs/answers.md "Follow-ups"). Not awaited: the reply does not wait on Redis for it. A code's
   * article is what they read now: their turn, to read a follow-up with (sent-apart.ts). A tag's
   * list (or a rule's) is what they read now: kept as their turn, before the reply goes out, as a
   * question's is, so that "第二个" picks from it.
   */
  private movedOn(asker: Asker, d: Decision): Decision | Promise<Decision> {
    if (d.listed) return this.questions.listed(asker, d.listed.about, d.listed.ids, d);
    if (d.reply && (d.answer === "code" || d.answer === "help" || d.answer === "courtesy" || d.answer.startsWith("rule:"))) {
      const sent = d.entry === undefined || asker.key === null ? undefined : this.store.articles.get(d.entry);
      const code = sent ? { entry: sent.id, key: asker.key as string, about: sent.title } : undefined;
      this.conversations?.unlist(asker.from, code).catch((e: Error) => this.log(`a follower's conversation could not be kept (a number they send next may pick from the list before): ${e.message}`));
    }
    return d;
  }

  private onEvent(m: Inbound): Decision | Promise<Decision> {
    switch (m.event) {
      case "subscribe":
        return this.says("welcome", false);
      case "CLICK":
      case "scancode_waitmsg": {
        // A menu button the follower pressed expects an answer (a scancode_waitmsg button shows
        // "receiving…" until it comes): a rule for its key, else the fallback, listed in the inbox.
        const key = (m.eventKey ?? "").trim();
        if (!key) return this.says("fallback", true);
        return then(this.ruleFor(key, true), (hit) => hit ?? this.says("fallback", true));
      }
      case "SCAN": {
        // QR scene keys can be answered by rules, with up to 8 articles; an unknown scene stays silent.
        const key = (m.eventKey ?? "").trim();
        if (!key) return none;
        return then(this.ruleFor(key, true), (hit) => hit ?? none);
      }
      default:
        return none;
    }
  }

  private onText(text: string, asker: Asker): Decision | Promise<Decision> {
    if (!text) return this.says("fallback", true);
    const rule = this.ruleFor(text, false);
    if (rule instanceof Promise) return rule.then((r) => r ?? this.builtIn(text, asker));
    return rule ?? this.builtIn(text, asker);
  }

  /** Help, code, tag, answers, then the fallback texts. Synchronous unless it has to rank. */
  private builtIn(text: string, asker: Asker): Decision | Promise<Decision> {
    // As typed in full width too (ｈ, ２, ｎｅｗｓ): a phone's keyboard in Chinese mode may.
    const plain = text.normalize("NFKC");
    const lower = plain.toLowerCase();
    // As a phone ends it (a tag too, below: "housing?", "news!").
    const endedLower = withoutEnd(lower);
    // As a phone ends it too ("h?", "帮助。", "help!"), and question marks alone ("？？", "?!"): the fallback had told them to send h.
    if (HELP_WORDS.has(lower) || HELP_WORDS.has(endedLower) || ONLY_ASKED.test(plain)) return { reply: { type: "text", content: helpText(this.store, this.text("help", text)) }, answer: "help", unmatched: false };

    // Read as what it names, never as a pick from the list just sent: "回复3" is code 3 whatever list came before.
    // Typed whole, "回复3" had got the fallback, or a list found by 回复; "回复3。" as a phone ends it.
    const ended = withoutEnd(plain);
    const told = toldToSend(ended);
    if (told !== null && this.isBuiltIn(told)) return this.builtIn(told, { from: asker.from, key: null });

    // As a phone ends it too ("8。", "8?", "8！"), as a tag: those had got the fallback where "回复8。" got the code (a walkthrough).
    // And as copied from a welcome text or a keyboard's keycap: "【8】", "“8”", "8️⃣", "#8" (codeTyped).
    const bare = codeTyped(ended);
    const byCode = this.store.articles.getLiveByCode(text) ?? (plain === text ? null : this.store.articles.getLiveByCode(plain)) ?? (ended === plain || !ended ? null : this.store.articles.getLiveByCode(ended)) ?? (bare === ended || !bare ? null : this.store.articles.getLiveByCode(bare));
    if (byCode) {
      const code: Decision = { reply: { type: "news", articles: [news(byCode)] }, answer: "code", unmatched: false, entry: byCode.id };
      // "2" right after a numbered list is its second entry, though an article's code is 2: the list is what the follower reads.
      return asker.key !== null && picksEntry(text) !== null ? this.questions.pickOr(text, asker, code) : code;
    }

    if (/^[a-z0-9]{1,16}$/.test(endedLower)) {
      const list = tagList(this.store, endedLower);
      if (list) return { reply: { type: "text", content: list.text }, answer: "tag", unmatched: false, listed: list.listed };
    }
    // A tag's description, as help shows it beside the key (lists.ts tagDescribed) — not thanks; and
    // words that ask for another answer or pick ("Others") continue the list just sent when there is
    // one (a tag described "Others" had taken the "others" sent after a ranked list: a review).
    const described = tagDescribed(this.store, plain);
    const list = described === null || courtesyOf(plain) !== null ? null : tagList(this.store, described);
    if (list) {
      const tag: Decision = { reply: { type: "text", content: list.text }, answer: "tag", unmatched: false, listed: list.listed };
      if (asksForAnother(plain) || picksEntry(plain) !== null) return this.questions.continuesList(asker).then((goesOn) => (goesOn ? this.asked(text, asker) : tag));
      return tag;
    }
    return this.asked(text, asker);
  }

  /** The message as a question (or `s <words>`): the articles' answer. */
  private asked(text: string, asker: Asker): Promise<Decision> {
    const searched = searchedWords(text);
    return this.questions.answer(searched ?? text, searched !== null ? "not_found" : "fallback", asker);
  }

  /** What help, a code or a tag answers — or a number, which is no question whatever answers it. */
  private isBuiltIn(word: string): boolean {
    const lower = word.toLowerCase();
    const bare = codeTyped(word);
    return HELP_WORDS.has(lower) || this.store.articles.getLiveByCode(word) !== null || (bare !== word && this.store.articles.getLiveByCode(bare) !== null) || /^\d+$/.test(word) || (this.store.articles.tagCounts().get(lower) ?? 0) > 0 || tagDescribed(this.store, word) !== null;
  }

  /** The first rule whose pattern matches, as a reply; rules whose articles are all gone are passed over. */
  ruleFor(text: string, isEvent: boolean): Decision | null | Promise<Decision | null> {
    return then(this.rulesMatching(text), (hits) => {
      for (const rule of hits) {
        const replied = this.ruleReply(rule, isEvent, isEvent ? "" : text);
        // A rule kept for the inbox answers, and leaves the message for someone to answer too (Rule.inbox);
        // so does any rule, of a message a person should read ("I need to cancel, my mum has died" and a
        // rule on "cancel": ranking/needs-person.ts — a review).
        if (replied) {
          const person = isEvent ? null : needsPerson(text);
          return { ...replied, answer: `rule:${rule.id}`, unmatched: rule.inbox === true || person !== null, ...(person ? { person } : {}) };
        }
      }
      return null;
    });
  }

  /** Every rule whose pattern matches `text`, in order; synchronous unless a regex rule has to run in the worker. */
  rulesMatching(text: string): Rule[] | Promise<Rule[]> {
    const rules = this.store.content.rules();
    if (!rules.length) return [];
    const regex = regexRulesOf(rules);
    if (!regex.patterns.length) return this.matching(rules, text, () => false);
    return this.regex.match(regex.patterns, text, this.store.content.rulesVersion).then((hits) => this.matching(rules, text, regex.hit(hits)));
  }

  private matching(rules: Rule[], text: string, regexHit: (rule: Rule) => boolean): Rule[] {
    return rulesMatchingText(rules, this.foldedPatterns(rules), text, regexHit);
  }

  /**
   * The rules' patterns read as followers' words are (ranking/words.ts folded): case, full width
   * and traditional characters aside — 營業時間 matches 营业时间, ＷＩＦＩ wifi. Once per rules read
   * (the store hands out the same list until the rules are written).
   */
  private foldedPatterns(rules: Rule[]): string[] {
    if (this.patterns?.of !== rules) this.patterns = { of: rules, folded: rules.map(foldedPattern) };
    return this.patterns.folded;
  }

  /** `asked`: the follower's message, what a list of the rule's articles is about (an event's key is no question). */
  private ruleReply(rule: Rule, isEvent: boolean, asked: string): Pick<Decision, "reply" | "listed"> | null {
    if (rule.reply.type === "text") return { reply: { type: "text", content: rule.reply.text } };
    const reply = rule.reply;
    const tag = reply.type === "tag" ? reply.tag : null;
    // An event's news carries the first MAX_NEWS_FOR_EVENT; a message's list, as many as a tag's own (it had cut a tag of 14 to 8, unsaid).
    const articles = ruleArticles(this.store.articles, reply, isEvent ? MAX_NEWS_FOR_EVENT : TAG_LISTED);
    if (!articles.length) return null;
    const limit = isEvent ? MAX_NEWS_FOR_EVENT : MAX_NEWS_FOR_MESSAGE;
    // A tag's listing is summaries, without the body a card with no description shows the opening of (a walkthrough's tag left with one article sent a card of its title alone).
    if (articles.length <= limit) return { reply: { type: "news", articles: articles.map((a) => news(this.store.articles.get(a.id) ?? a)) } };
    // More articles than a reply to a message may carry: list them so the follower can pick by code.
    const list = articleList(this.store, articles, tag, asked);
    return { reply: { type: "text", content: list.text }, listed: list.listed };
  }
}
