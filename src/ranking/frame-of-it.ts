/**
 * A question word, its verb and a pronoun for the thing read ("how long does that take", "how much is
 * it", "when does it close", "where are they"): the question's frame is all its words say, its
 * subject the thing read (wechat/answering/reading.ts keeps such a follow-up on it). A word after the
 * pronoun only where a verb of its own follows a do or a modal ("does that take", "does it cost"):
 * after is or are a word names the thing ("how much is that shingrix" after the flu shot asks of
 * shingles: a review). Not "how long does it take to get the results" (the "it" of a frame, what it
 * asks of named after), nor a pronoun that is the follower ("when do i").
 */
import { foldJoined } from "./fold.ts";

const ASKS = "(?:how (?:long|much|many|often|soon|late|early)|how|when|where|what time|why)";
const PRONOUN = "(?:it|that|this|they|those|these)";
const FRAME_OF_IT = new RegExp(`^${ASKS} (?:(?:does|do|did|will|would|can|could|should) ${PRONOUN}(?: [\\p{L}\\p{N}]+)?|(?:is|are|was|were|has|have) ${PRONOUN})$`, "u");

export const asksOfItByFrame = (text: string): boolean => FRAME_OF_IT.test(foldJoined(text));
