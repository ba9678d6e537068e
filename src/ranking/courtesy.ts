/**
 * A whole message that asks nothing (docs/answers.md "What followers get"): "closes" — thanks, an
 * acknowledgement, a goodbye, laughter, or nothing but punctuation and symbols (an emoji); "opens" —
 * a greeting or "one more question". Said as one of the phrases below, or made of them: 好的谢谢,
 * 你好在吗, 收到 谢谢🙏; "brilliant thank you", "ok cheers mate", "hi there, quick question". A
 * closed set of followers' phrasings in both languages (mainland, Hong Kong, Taiwan, British,
 * Singapore, Australian, Vietnamese and Filipino ones among them; and thanks and hello in the
 * languages their followers' families speak besides), never the account's words: a
 * message holding one word outside it is a message.
 */
import { fold } from "./fold.ts";
import { praises } from "./praise.ts";

export type Courtesy = "closes" | "opens";

/** Thanks and acknowledgements close a question, goodbyes the conversation: nothing is asked. */
const CLOSES = [
  "谢谢", "谢谢你", "谢谢您", "谢谢你们", "多谢", "唔该", "唔该晒", "感谢", "感恩", "谢了", "谢啦", "谢谢啦", "3q", "好的", "好", "好吧", "好哦", "好喔", "好滴", "好嘞", "好哒", "好呀",
  "那好吧", "那好", "也好", "那也好", "那行", "行", "嗯", "嗯呢", "哦", "噢", "知道了", "明白", "明白了", "了解", "了解了", "清楚了", "收到", "收到了", "收到啦", "懂了", "可以了", "不用了", "没事了",
  "辛苦了", "辛苦啦", "麻烦了", "麻烦你了", "打扰了", "赞", "哈哈", "呵呵", "嘻嘻", "再见", "拜拜", "掰掰", "晚安",
  // Told it worked ("谢谢 解决了👍" had been sent three articles).
  "解决了", "搞定了", "搞定", "没问题", "没问题了", "成功了", "弄好了", "可以用了", "能用了",
  // Cantonese (folded to simplified as the ranking reads them: 多謝晒 is 多谢晒).
  "多谢晒", "多谢你", "多谢你哋", "唔该你", "好嘅", "冇问题", "无问题", "知道喇", "知道啦", "明白晒", "收到晒", "系咁先", "得喇", "得啦", "ok喇",
  // A sentence-final particle said after any of these ("你好呀", "早晨呀", "好嘅啦") is courtesy too;
  // and Taiwan's phone typing of them in Zhuyin (謝謝ㄋ, 感恩ㄛ, 好ㄉ) — not ㄇ, which is 嗎 (好ㄇ asks).
  "呀", "啊", "吖", "啦", "喇", "嘅", "㗎", "啰", "呢", "嘛", "哈", "ㄌ", "ㄉ", "ㄛ", "ㄋ", "ㄚ", "ㄏ",
  // "OK的", "ok了" (the OK convenience store's article had answered them); 的 and 了 alone are no
  // courtesy piece: "客服的呢" asks (a review).
  "ok的", "ok了", "okay的", "好了",
  // Taiwan's: thanks, and bye-bye and hello as Zhuyin initials (a Taiwanese bookstore's walkthrough: each got the fallback).
  "感谢您", "感谢你", "太感谢了", "太感谢", "非常感谢", "万分感谢", "ㄅㄅ",
  "thanks", "thank you", "thank u", "thanks a lot", "thanks so much", "many thanks", "thank you very much", "thx", "ty", "ok", "okay", "ok thanks", "ok thx", "ok thank you", "got it", "great", "cool", "nice",
  "will do", "will do thanks", "will do thank you", "ok will do", "will do cheers",
  // Goodbyes (a Leeds library's walkthrough: each had got the fallback, and the inbox).
  "have a good day", "have a nice day", "have a great day", "have a good one", "have a good weekend", "ta ra", "tara",
  "perfect", "bye", "goodbye", "no thanks", "that's all", "thats all", "lol", "haha", "no worries",
  // Singapore's and Malaysia's: Malay and Tamil thanks, as typed in English letters.
  "terima kasih", "terima kasih banyak", "nandri", "nanri", "noted with thanks",
  // Vietnamese, with its marks and as typed without them (an Australian library's migrant families).
  "cảm ơn", "cám ơn", "cảm ơn nhiều", "cám ơn nhiều", "tạm biệt", "vâng", "dạ", "cam on", "cam on nhieu", "tam biet",
  // The languages an English or Chinese account's followers thank in besides (a British shop's Polish
  // follower's dziękuję got the fallback, and waited in the inbox): with their marks and without.
  "dziękuję", "dziekuje", "dzięki", "dzieki", "dziękuję bardzo", "dziekuje bardzo", "gracias", "muchas gracias", "merci", "merci beaucoup",
  "danke", "danke schön", "danke schoen", "vielen dank", "grazie", "grazie mille", "obrigado", "obrigada", "muito obrigado", "muito obrigada",
  "спасибо", "дякую", "ありがとう", "ありがとうございます", "감사합니다", "고맙습니다", "shukriya", "dhanyavaad", "dhanyavad",
  // Arabic, Brazilian and Korean students' (a Boston language school's walkthrough: each had got the fallback, and waited in the inbox).
  "شكرا", "شكراً", "شكرا جزيلا", "شكراً جزيلاً", "جزاك الله خيرا", "jazakallah", "jazakallah khair", "jazakallahu khairan", "jazak allah khair", "jzk", "shukran", "shukran jazilan",
  "valeu", "brigado", "brigada", "obg", "고마워요", "고마워", "감사해요", "네", "예", "알겠습니다",
  // Urdu as its speakers type it (with Farsi's ی and ہ), and in Latin letters.
  "شکریہ", "بہت شکریہ", "bahut shukriya", "shukria",
];
/** Greetings and "one more question" open one: the follower waits for the account to say how to ask. */
const OPENS = [
  "早晨", "早", "早上好", "早安", "ㄋㄏ", "中午好", "午安", "下午好", "晚上好", "你好", "您好", "你们好", "大家好", "哈喽", "哈啰", "嗨", "安安",
  "再问一下", "还想问一下", "我还想问", "还有个问题", "还有一个问题", "另外一个问题", "换个问题", "问个问题", "请问", "请问一下", "问一下", "想问一下", "我想问一下",
  "咨询一下", "我想咨询一下", "打扰一下", "在吗", "在么", "在嘛", "在不在", "有人吗", "有人在吗", "有冇人", "有冇人喺度", "喂",
  // "在" and "在？" alone ask whether anyone is there, as 在吗 does (a courier's walkthrough: "在" had
  // got the branch address by its keyword 网点在哪, "在？" the fallback).
  "在", "在不",
  // "人呢" (and 有没有人) asks whether anyone is there as 在吗 does: "人呢？？在不在" had got the fallback and the inbox (a service centre's walkthrough).
  "人呢", "有没有人",
  "one more question", "another question", "i have a question", "i have another question", "quick question", "hello", "hi", "anyone there", "is anyone there", "anybody there", "is anybody there",
  // Asking to ask, as students writing English as a second language open ("Dear teacher, I want to ask
  // about accommodation price" got the fallback: its "ask" held against every article, a walkthrough).
  "i want to ask", "i want to ask about", "i wanna ask", "i would like to ask", "i'd like to ask", "would like to ask", "want to ask", "i just want to ask", "just want to ask",
  "may i ask", "let me ask", "i want to know", "i would like to know", "i'd like to know",
  "想问下", "我想问下", "问下", "请教一下", "请教下", "咨询下", "想咨询一下", "我想咨询",
  "selamat pagi", "selamat petang", "selamat malam", "selamat tengah hari", "vanakkam",
  "xin chào", "chào", "xin chao", "chao",
  "dzień dobry", "dzien dobry", "cześć", "czesc", "hola", "buenos días", "buenos dias", "bonjour", "hallo", "guten tag", "ciao", "buongiorno", "olá", "ola", "bom dia",
  "привет", "здравствуйте", "こんにちは", "안녕하세요", "namaste",
  "السلام عليكم", "السلام علیکم", "سلام", "مرحبا", "witam", "salam", "salaam", "assalamualaikum", "assalamu alaikum", "assalamu'alaikum", "as salamu alaikum", "salam alaikum", "marhaba",
  "oi", "tudo bem", "boa tarde", "boa noite", "안녕", "buenas", "buenas tardes", "buenas noches",
];
/**
 * Whom a follower thanks or greets (谢谢医生, 老师好, "thank you doctor", "hello doc"): courtesy beside
 * a phrase above, never alone — "医生" or "doctor" sent alone asks something (a walkthrough's
 * clinic sent its fees card for 谢谢医生, "hello doc" got the contact card by its e-mail's "hello").
 */
const ADDRESSED_HAN = ["医生", "大夫", "老师", "师傅", "老板", "教练", "教授", "同学", "先生", "女士", "小姐", "美女", "帅哥", "店家", "掌柜", "管理员", "亲", "亲亲", "客服", "小姐姐", "小哥哥", "护士", "阿姨", "各位", "姐", "哥"];
/** Whom a Vietnamese follower thanks or greets (cảm ơn bạn, chào anh, "cam on ad"): beside courtesy only, as those above. */
const ADDRESSED_VI = ["bạn", "anh", "chị", "em", "ad", "ban", "chi"];
/** Each phrase folded (fold()). */
const PHRASES = new Map<string, Courtesy>([...CLOSES.map((s) => [fold(s), "closes"] as const), ...OPENS.map((s) => [fold(s), "opens"] as const)]);
/** …and without its spaces: the pieces a message in Chinese is made of ("好的谢谢", "ok谢谢"); whom it addresses, a piece that is no courtesy alone. */
const PIECES = new Map<string, Courtesy | "addressed">([
  ...[...PHRASES].map(([s, kind]) => [s.replace(/ /g, ""), kind] as const),
  ...[...ADDRESSED_HAN, ...ADDRESSED_VI].map((s) => [fold(s), "addressed"] as const),
  // 老师好 greets (好 alone is an acknowledgement).
  ...ADDRESSED_HAN.map((s) => [fold(`${s}好`), "opens"] as const),
]);
const LONGEST_PIECE = Math.max(...[...PIECES.keys()].map((p) => [...p].length));

/** Latin words a message of thanks is made of ("brilliant thank you", "ok cheers mate", "thanks love"): one of these… */
const THANKING = new Set(["thanks", "thank", "thankyou", "thanku", "thanx", "thnx", "thks", "tnx", "tks", "thx", "ty", "tysm", "tq", "tqvm", "tqsm", "cheers", "ta", "salamat", "appreciated", "appreciate"]);
/** Whom they thank or greet, and the particles a Singaporean ends it with ("thanks lah", "ok lor", "hello doc"): beside courtesy only. */
const ADDRESSED_LATIN = ["doc", "doctor", "dr", "sir", "madam", "maam", "boss", "teacher", "miss", "aunty", "auntie", "uncle", "bro", "sis", "brother", "sister", "friend", "habibi", "lah", "la", "leh", "lor", "hor", "ya", "yah", "ba", "can", "po"];
const ACKNOWLEDGING = new Set([
  "ok", "okay", "okey", "okie", "kk", "great", "brilliant", "brill", "lovely", "perfect", "cool", "nice", "awesome", "fab", "fabulous", "fantastic", "wonderful", "excellent",
  "amazing", "ace", "alright", "sure", "noted", "understood", "bye", "goodbye", "cya", "lol", "haha", "hahaha", "lmao", "sige", "opo",
]);
/**
 * …with these around them ("thanks so much", "nice one", "that's great thanks": fold() leaves "that s").
 * Words that are questions alone at some account ("fine" at a library, "sound", "right", "good") count only beside one of the above.
 */
const AROUND = new Set([
  "you", "u", "ya", "very", "so", "much", "a", "lot", "lots", "loads", "heaps", "mate", "love", "again", "that", "thats", "s", "it", "its", "got", "no", "worries", "one", "really", "many", "all", "then", "oh", "ah",
  "x", "xx", "xxx", "guys", "everyone", "fine", "good", "right", "sound", "super", "great", "maraming", "na", ...ADDRESSED_LATIN,
]);
/**
 * …and these only beside thanks ("thanks for the help": "ok help" is a request): that it worked, and
 * goodbyes ("thanks that worked!!", "ta, see you thursday 👍", "you guys are the best" had each been
 * sent articles).
 */
const WITH_THANKS = new Set([
  "for", "the", "your", "help", "info", "reply", "answer", "quick", "response", "time", "with", "worked", "works", "helped", "helps", "helpful", "sorted", "solved", "fixed", "now", "are", "best", "see",
  // "thank you for your kindness", "great stuff cheers" (a vet's walkthrough: each had got the fallback).
  "kindness", "everything", "stuff",
  // "thanks, have a good day", "much appreciated, have a nice weekend".
  "have", "day", "weekend",
  // The endearments an older audience thanks with ("Thank you so much dear 😊", "cheers pet": a theatre's walkthrough,
  // where they had got the fallback and topped the report's questions nothing answered) — beside thanks only: "pet ok?" asks.
  "dear", "luv", "darling", "darlin", "hun", "hon", "pet", "pal", "buddy", "chief", "sweetheart",
]);
/** …and these only in "see you …" beside thanks: "thanks! sunday?" asks about Sundays. */
const SEE_YOU = new Set(["soon", "later", "tomorrow", "next", "week", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
/** Greetings that, before a question's first word, are no part of it: as "morning" may be ("morning clinic hours"). */
const ONLY_GREETING = new Set(["hi", "hello", "hey", "heya", "hiya", "hallo", "howdy"]);
/** A question's first word: what a greeting typed straight onto a question stands before. */
const QUESTION_OPENS = /^(?:can|could|do|does|did|is|are|was|were|will|would|should|shall|may|might|have|has|how|what|whats|what's|when|where|wheres|where's|why|who|whos|which|i|im|i'm|ive|i've|we|my|our|any|pls|please|plz)\b/;
/** Latin words a greeting is made of ("good morning", "hiya", "hi there, quick question"): one greeting, the rest of these. */
const GREETING = new Set([...ONLY_GREETING, "yo", "morning", "afternoon", "evening", "greetings", "gm", "gday", "gidday", "arvo", "magandang", "dear"]);
const AROUND_GREETING = new Set(["good", "gd", "there", "all", "everyone", "guys", "folks", "team", "dear", "again", "quick", "question", "one", "more", "another", "i", "have", "a", "got", "please", "anyone", "anybody", "is", "mate", "umaga", "hapon", "gabi", "araw", ...ADDRESSED_LATIN]);
const MOST_WORDS = 8;

/**
 * What a whole message of courtesy does, praise sent whole too ("love the bikes 👍", 服务很好 点赞:
 * praise.ts), which closes as thanks does: what the responder answers (wechat/answering/questions.ts).
 * Not where a tag's description or a clause of a longer message is read (courtesyOf): "Great deals"
 * may name a tag, and a clause praising names what it praises (a review).
 */
export function courtesyOrPraise(text: string): Courtesy | null {
  return courtesyOf(text) ?? (praises(text, (clause) => courtesyOf(clause) !== null) ? "closes" : null);
}

export function courtesyOf(text: string): Courtesy | null {
  const f = fold(text);
  if (!f) return ANGRY.test(text) ? null : "closes";
  const said = PHRASES.get(f);
  if (said) return said;
  if (/[^a-z' ]/.test(f)) return pieced(f.replace(/ /g, ""));
  // One word of courtesy asked ("evening?" after the opening hours, "good?") is a follow-up, not a greeting; "anyone there?" is one.
  // "g'day" folds to "g day" (its apostrophe is punctuation): one word, as "gday".
  const words = f.replace(/(^| )g day( |$)/g, "$1gday$2").split(" ");
  return words.length === 1 && /[?？]\s*$/u.test(text) ? null : latinWords(words, /[?？]/u.test(text));
}

/** A whole message that asks nothing: courtesy, or praise sent whole. */
export const standsAlone = (text: string): boolean => courtesyOrPraise(text) !== null;

/**
 * Anger or a thumbs down, sent without a word ("😡😡😡", "👎"): no thanks to close on, but a follower
 * displeased — the fallback, and the inbox, where the operator sees it (a fresh-food chain's
 * walkthrough: "😡😡😡" had got no reply and was logged as thanks, Session 52).
 */
const ANGRY = /[\u{1F621}\u{1F92C}\u{1F620}\u{1F624}\u{1F4A2}\u{1F44E}\u{1F595}\u{1F644}\u{1F612}]/u;

/** A message in Chinese (or digits, or mixed) made of the phrases whole: 好的谢谢, 你好在吗, 在吗在吗, 收到谢谢. Opens if any piece opens. */
function pieced(f: string): Courtesy | null {
  const kind = piecesOf(f);
  return kind === undefined || kind === "addressed" ? null : kind;
}

/** What `f` is made of pieces as ("addressed": whom alone), or undefined when it is not. */
function piecesOf(f: string): Courtesy | "addressed" | undefined {
  const chars = [...f];
  if (chars.length > 24) return undefined;
  // kinds[i]: how the first i characters are made of pieces ("opens" over "closes" over "addressed":
  // whom alone), or undefined when they are not.
  const kinds: (Courtesy | "addressed" | undefined)[] = [undefined];
  const made = (i: number) => i === 0 || kinds[i] !== undefined;
  const RANK = { addressed: 0, closes: 1, opens: 2 } as const;
  for (let end = 1; end <= chars.length; end++)
    for (let start = Math.max(0, end - LONGEST_PIECE); start < end; start++) {
      if (!made(start)) continue;
      const kind = PIECES.get(chars.slice(start, end).join(""));
      if (!kind) continue;
      const best = [kind, kinds[start], kinds[end]].reduce<Courtesy | "addressed">((a, k) => (k !== undefined && RANK[k] > RANK[a] ? k : a), "addressed");
      kinds[end] = best;
    }
  return kinds[chars.length];
}

/** A greeting drawn out ("hii", "heyyy", "helloo": "hii" had got the fallback, a bike share's walkthrough): the greeting; any other word as it is. */
const drawnOut = (w: string): string => {
  if (GREETING.has(w)) return w;
  const short = w.replace(/([a-z])\1+$/, "$1");
  return GREETING.has(short) ? short : w;
};

/** A message in Latin letters made of the words above: a greeting, or thanks and acknowledgement. */
function latinWords(typed: string[], asked = false): Courtesy | null {
  if (typed.length > MOST_WORDS) return null;
  const words = typed.map(drawnOut);
  if (words.some((w) => GREETING.has(w)) && words.every((w) => GREETING.has(w) || AROUND_GREETING.has(w))) return "opens";
  const thanks = words.some((w) => THANKING.has(w));
  // Asked ("thanks, it works now?", "thanks! are you open"): the words beside thanks are a question's.
  const withThanks = thanks && !asked;
  const seeYou = withThanks && words.includes("see");
  const closes = (w: string) => THANKING.has(w) || ACKNOWLEDGING.has(w) || AROUND.has(w) || (withThanks && WITH_THANKS.has(w)) || (seeYou && SEE_YOU.has(w));
  if ((thanks || words.some((w) => ACKNOWLEDGING.has(w))) && words.every(closes)) return "closes";
  // A phrase said again and again without spaces: "okok", "thxthx".
  return pieced(words.join(""));
}

/**
 * A question without the greeting or thanks it opens with, set apart by a mark or a space ("医生你好，
 * 挂号怎么挂", "hi doc, can i walk in", "谢谢！那周末呢"): the rest, or the text as it is. Its 好 had been
 * the question's heaviest term, and 医生 found an article saying 开单医生 (a walkthrough's hospital).
 */
export function withoutOpening(text: string): string {
  // Openings one after another ("Dear teacher, I want to ask about …"), each within the bound below.
  let rest = text;
  for (let i = 0; i < OPENINGS; i++) {
    const next = oneOpeningOff(rest);
    if (next === rest) break;
    rest = next;
  }
  return rest;
}

/**
 * An opening asking to ask, typed straight onto the question with no mark between ("请问快递员能上门
 * 来拿吗", "想问一下周末开门吗"): taught so, the question had kept it, and a follower asking without it
 * was no taught question (a courier's walkthrough). Not those ending on 下, which run into the
 * question's words (请问下午几点开, 我想问下载的课件).
 */
const GLUED = /^(?:你好|您好)?(?:请问一下|请问|我想问一下|想问一下|问一下|我想咨询一下|想咨询一下|咨询一下|打扰一下)(?=\p{Script=Han})/u;

/** Openings taken off a question, one after another, at most. */
const OPENINGS = 3;

function oneOpeningOff(text: string): string {
  if (courtesyOf(text) !== null) return text;
  const glued = GLUED.exec(text);
  if (glued && glued[0].length < text.length) return text.slice(glued[0].length);
  // The longest opening of 24 characters at most that ends at a mark or space and is courtesy, or whom it addresses ("医生，").
  let cut = 0;
  for (const m of text.slice(0, 25).matchAll(/[\s,，.。!！~～:：;；、]+/gu)) {
    const head = text.slice(0, m.index);
    // One English word before a space may be the question's own ("morning clinic hours"): a mark sets
    // it apart — or it is a greeting before a question's first word ("hiya can i swap my tickets" had
    // been taught with its hiya: a theatre's walkthrough; not "hello fresh vouchers", "hi vis vests",
    // "hi fi repair": a review).
    const apart = /\S/.test(m[0]) || /\p{Script=Han}/u.test(head) || /\s/.test(head.trim()) || (ONLY_GREETING.has(fold(head).trim()) && QUESTION_OPENS.test(fold(text.slice(m.index + m[0].length))));
    if (head && apart && opens(head) && (/\S/.test(m[0]) || spaceEnds(head))) cut = m.index + m[0].length;
  }
  return cut > 0 && cut < text.length ? text.slice(cut) : text;
}

/**
 * Whether an opening may end at a space, no mark after it: thanks, or its words since the last mark are an
 * opening phrase ("may i ask"), or a greeting with whom it greets ("hi there", "morning all") — not
 * the words a greeting message may hold that a question opens with ("hello, can i come at 5am" had
 * been taught as "come at 5am", "hi, is there parking" ranked as "parking": a walkthrough).
 */
function spaceEnds(head: string): boolean {
  const last = fold(head.split(/[,，.。!！~～:：;；、]/u).pop() ?? "").trim();
  if (/[^a-z' ]/.test(last)) return true;
  const words = last.split(" ");
  // Thanks and how much ("thanks so much, love my pack": whom thanks may name) — not the words beside
  // thanks that a question opens with ("thanks can i pay by card" had been taught as "i pay by card").
  if (courtesyOf(head) === "closes") return words.every((w) => THANKING.has(w) || ACKNOWLEDGING.has(w) || THANKS_TAIL.has(w));
  // A greeting, with whom it greets, and an opening phrase after it or none ("hello may i ask").
  const greeting = words.findIndex((w) => !GREETING.has(w) && !GREETED.has(w));
  const rest = greeting < 0 ? "" : words.slice(greeting).join(" ");
  return PHRASES.get(last) === "opens" || (words.some((w) => GREETING.has(w)) && (rest === "" || PHRASES.get(rest) === "opens"));
}
/** What thanks end with before a question, no mark between ("thank you so much dear …"). */
const THANKS_TAIL = new Set(["you", "u", "ya", "very", "so", "much", "a", "lot", "lots", "loads", "heaps", "mate", "love", "again", "really", "x", "xx", "xxx", "guys", "everyone", "dear"]);
/** Whom or when a greeting greets, before a question with no mark between ("hi there when do you open"). */
const GREETED = new Set(["good", "gd", "there", "all", "everyone", "guys", "folks", "team", "dear", "again", "mate", "doc", "doctor", "sir", "madam", "maam", "boss", "teacher", "miss"]);

/** Courtesy, or whom it addresses alone ("医生", "doc"): said before a question, neither is part of it. */
function opens(head: string): boolean {
  if (courtesyOf(head) !== null) return true;
  const f = fold(head);
  return /[^a-z' ]/.test(f) ? piecesOf(f.replace(/ /g, "")) !== undefined : f.split(" ").every((w) => ADDRESSED_LATIN.includes(w) || GREETING.has(w));
}
