/**
 * A message complaining of how someone served the follower ("态度太差了 我问两句就不耐烦",
 * "the guy at the counter was super rude to me"): its words name the person, the counter, the day —
 * none of what the account's complaints article is titled or keyworded by (投诉, "complaint"), and
 * three walkthroughs' and our FAQ's followers got the fallback beside such an article. Read with that
 * word added. Only a person's manner: "信号太差了" and "the app is terrible" are about a thing an article
 * may answer, and an account with no complaints article holds no such word (it counts against every
 * article alike, as any word no article holds).
 */
import { fold } from "./fold.ts";

const MANNER_HAN = /态度(?:太|很|真|好|非常|特别|极其|超)?(?:差|不好|恶劣|差劲|冷淡|蛮横)|不耐烦|爱答不理|爱理不理|没人理|骂人|骂我|凶我|吼我|老凶|很凶|太凶/u;
const MANNER_LATIN = /\b(?:rude|rudely|unprofessional|disrespectful|impolite|condescending|(?:yelled|shouted|snapped|swore) at (?:me|my|us)|(?:was|were|so|very|really) mean to)\b/;

/** The word added to a message complaining of someone's manner; null when it does not. */
export function complaint(text: string): string | null {
  const f = fold(text.replace(/[\u2019']/g, " "));
  if (MANNER_HAN.test(f.replace(/ /g, ""))) return "投诉";
  return MANNER_LATIN.test(f) ? "complaint" : null;
}

/** The message says it complains, in the words a complaints article is keyworded by (投诉, "complain"). */
export const namesComplaint = (text: string): boolean => /投诉|complain/u.test(fold(text));
