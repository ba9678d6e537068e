/**
 * What a follower tells after asking — why they ask, what happened — is not what they ask: "能上门取件吗
 * 我在家带娃出不去", "会员卡里的钱能退吗 要搬去外地了", "can i add stuff to my order after i've placed
 * it? forgot milk". Its words count against every article in the share of the question an article
 * holds (score.ts), so a right article ranked first by twice the next score had got the fallback.
 * Told before the question, the same words are its subject ("空调不制冷 咋回事", "专家号一直挂不上 咋办"):
 * they count in full.
 */
import { partsOf } from "./parts.ts";
import { placesOf } from "./words.ts";

/**
 * The terms of the places (words.ts placesOf) only in the parts after the message's first asking
 * part that ask nothing (parts.ts, a space between Chinese characters parting too); null when there
 * are none.
 */
export function explainedTerms(question: string): ReadonlySet<string> | null {
  const parts = partsOf(question, true);
  const first = parts.findIndex((p) => p.asks);
  if (first < 0) return null;
  const told = parts.slice(first + 1).filter((p) => !p.asks);
  if (!told.length) return null;
  const said = new Set(parts.filter((p) => !told.includes(p)).flatMap((p) => placesOf(p.text).map((x) => x.term)));
  const only = new Set(told.flatMap((p) => placesOf(p.text).map((x) => x.term)).filter((t) => !said.has(t)));
  return only.size ? only : null;
}
