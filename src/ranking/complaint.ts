/**
 * A message complaining of how someone served the follower ("态度太差了 我问两句就不耐烦",
 * "the guy at the counter was super rude to me"): its words name the person, the counter, the day —
 * none of what the account's complaints article is titled or keyworded by (投诉, "complaint"), and
 * three walkthroughs' and our FAQ's followers got the fallback beside such an article. Read with that
 * word added (rank.ts). Only a person's manner, said of someone: "信号太差了" and "the app is
 * terrible" are about a thing an article may answer; "狗狗很凶", "孩子老骂人怎么办", "is it rude to call
 * after 9pm" and "the staff were never rude" complain of no one (a review). An account with no
 * complaints article holds no such word: it counts against every article alike.
 */
import { fold, foldJoined } from "./fold.ts";

/** 态度 is a person's; being ignored, shouted at or sworn at is the follower's. */
const MANNER_HAN = /态度(?:太|很|真|好|非常|特别|极其|超|极)?(?:差|不好|恶劣|差劲|冷淡|蛮横|傲慢)|爱答不理|爱理不理|没人理|不理人|(?:骂|凶|吼|训|怼)(?:我|我们|我妈|我爸|我家)|对(?:我|我们)(?:太|很|特别|超|好|那么|这么)?(?:凶|不耐烦|不客气|态度)/u;
/** Rude and the like said of someone (was, so, super rude; rude to me), not asked of ("is it rude to…") nor denied ("never rude"). */
const MANNER_WORD = "(?:rude|unprofessional|disrespectful|impolite|condescending|dismissive)";
const MANNER_LATIN = new RegExp(
  [
    `(?<!\\b(?:not|never|wasnt|werent|isnt|arent|aint|hardly|nobody|noone) )\\b(?:was|were|is|are|been|being|so|very|really|super|extremely|incredibly|quite|pretty|totally|absolutely|rly|v)(?: (?:so|very|really|super|extremely|incredibly|quite|pretty|totally|absolutely))? ${MANNER_WORD}\\b`,
    `\\b${MANNER_WORD} (?:to|with|towards) (?:me|my|us|our)\\b`,
    "\\b(?:yelled|shouted|snapped|swore|screamed) at (?:me|my|us|our)\\b",
    "\\b(?:was|were|so|very|really) mean to (?:me|my|us|our)\\b",
  ].join("|"),
);

/** The word added to a message complaining of someone's manner (`text`: as much of it as is ranked); null when it does not. */
export function complaint(text: string): string | null {
  const f = foldJoined(text);
  if (MANNER_HAN.test(f.replace(/ /g, ""))) return "投诉";
  return MANNER_LATIN.test(f) ? "complaint" : null;
}

/** The message says it complains, in the words a complaints article is keyworded by (投诉, "complain"). */
export const namesComplaint = (text: string): boolean => /投诉|complain/u.test(fold(text));
