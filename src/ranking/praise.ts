/**
 * Praise sent whole, asking nothing ("love the bikes 👍", "great service", 服务很好, 态度真好 点赞):
 * courtesy, as thanks is — no reply, not the inbox. The fallback had told a bike share's follower
 * "a member of our team … will reply", and the report offered the praise to teach (a walkthrough).
 * Every clause of the message praises or is courtesy; none asks (a question word or mark, a
 * request), none complains (a negation, a complaint's word): "love the app but it keeps crashing",
 * "服务很好 能开发票吗" stay messages. A closed set of words, in both languages.
 */
import { fold } from "./fold.ts";

// The praise itself, where praise stands: opening a clause ("love the bikes", "great service", "i love the new
// e-bikes"), or said of something ("you guys are amazing", "event was great", "such a great night", "for a
// great session") — not after "the" or "a" alone ("the great gatsby author"). Not a word in a title's run ("author of the hymn great is thy faithfulness", "song have i
// told you lately i love you": search questions, NQ-Open). Not "best", which asks as often ("best way to
// top up"), nor "quick" or 快 ("扣费太快了").
const PRAISE_WORD = "(?:love|loved|loving|great|amazing|awesome|brilliant|brill|fantastic|excellent|superb|wonderful|lovely|fab|fabulous|legend|legends|outstanding|impressive|well done|top notch|spot on|five stars?|5 stars?)";
const PRAISE_LATIN = new RegExp(`(?:^|[,.!;:…]\\s*)(?:(?:i|we|just|really|absolutely|honestly|so|ok|okay)\\s+)*${PRAISE_WORD}\\b|\\b(?:is|are|was|were|s|be|been|so|very|really|truly|such an?|what an?|for an?|for the)\\s+${PRAISE_WORD}\\b`);
// What makes it a request or a complaint, anywhere in it: a question mark, a question word, a request,
// a complaint's word ("love the app how do i reset my password", "lovely, charged twice": a review).
const NOT_PRAISE_LATIN = /[?？]|\b(?:how|what|whats|where|when|why|which|who|whom|can|could|do|does|did|will|would|should|may|if|whether|please|pls|plz|help|need|want|looking|recommend|anyone|not|no|never|nothing|but|though|however|hate|worst|terrible|awful|rubbish|useless|disappointed|fuming|annoying|annoyed|unhappy|broken|crash|crashed|crashing|wrong|again|still|charged|charge|twice|refund|missing|late|lost|cancelled|canceled|delayed|waiting|dont|cant|wont|isnt|doesnt|didnt|wasnt|arent)\b|n't\b/;
// …and a clause opening as a question does ("is the pool great for kids"; not "you guys are amazing").
const ASKS_LATIN = /(?:^|[,.!;:…]\s*)(?:is|are|am|was|were)\b/;
// A praise word opening a name ("Great Ormond Street parking", "Lovely Lane car park"): a word in capitals after it.
const PRAISE_ONE = new RegExp(`^${PRAISE_WORD}$`);
const names = (typed: string): boolean => {
  const words = typed.split(/\s+/);
  return words.some((w, i) => PRAISE_ONE.test(w.toLowerCase().replace(/[^a-z0-9]/g, "")) && /^\p{Lu}/u.test(words[i + 1] ?? ""));
};
const MOST_LATIN_WORDS = 10;

// A clause praising: an intensifier and a good word (很好, 真专业, 挺干净的), or 点赞, 好评, 给力; with the particles and marks it ends on.
const PRAISE_HAN = /(?:(?<!不)(?:很|真|太|超|挺|非常|特别|蛮|好)有?(?:好|棒|赞|不错|给力|专业|贴心|耐心|热情|满意|好用|方便|干净|好看|好吃|好喝|靠谱|细心|负责)|点赞|好评|给力|棒棒哒|真棒|太棒)/u;
// …and a request or a deal in the clause (服务很好帮我开个发票, 好评返现: a review).
const NOT_PRAISE_HAN = /[吗呢么嘛啥怎哪几谁咋？?帮请要想返退换办交查订买开]|什么|多少|是不是|能不能|可不可以|有没有|会不会|为什么|[不没差慢贵烦]|垃圾|无语|但是|可是/u;
const MOST_HAN_CHARS = 24;

// A thumbs down or an angry face beside the words: sarcasm ("well done 👎", "great 🙄").
const DISPLEASED = /[\u{1F621}\u{1F92C}\u{1F620}\u{1F624}\u{1F4A2}\u{1F44E}\u{1F595}\u{1F644}\u{1F612}]/u;

/** A clause of courtesy alone, as courtesy.ts reads it (passed in: this file does not read that one's tables). */
type Courteous = (clause: string) => boolean;

export function praises(text: string, courteous: Courteous): boolean {
  const typed = text.normalize("NFKC").toLowerCase().replace(/[’']/g, "'");
  if (DISPLEASED.test(text)) return false;
  if (/\p{Script=Han}/u.test(typed)) {
    const clauses = typed.split(/[\s,，。.!！~～、;；\p{Extended_Pictographic}\u{FE0F}\u{200D}]+/u).filter(Boolean);
    if (!clauses.length || clauses.join("").length > MOST_HAN_CHARS) return false;
    let praised = false;
    for (const clause of clauses) {
      if (PRAISE_HAN.test(clause) && !NOT_PRAISE_HAN.test(clause)) praised = true;
      else if (!courteous(clause)) return false;
    }
    return praised;
  }
  const words = fold(typed).split(" ").filter(Boolean);
  // "love" alone is whom they thank ("thanks love"), never praise by itself.
  if (!words.length || words.length > MOST_LATIN_WORDS || (words.length === 1 && /^lov/.test(words[0] as string))) return false;
  const said = words.join(" ");
  // Clauses as typed (fold drops the marks between them), with an apostrophe's "'s" as a word.
  const clauses = typed.replace(/'s\b/g, " s").replace(/[^\p{L}\p{N},.!;:…\s]/gu, " ").replace(/\s+/g, " ").trim();
  const asTyped = text.normalize("NFKC").trim();
  return PRAISE_LATIN.test(clauses) && !NOT_PRAISE_LATIN.test(typed) && !NOT_PRAISE_LATIN.test(said) && !ASKS_LATIN.test(clauses) && !names(asTyped);
}
