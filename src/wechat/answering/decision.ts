/**
 * What the answering decides for one inbound message (`Decision`: the reply, how it was answered
 * for the log, and what a model would be given), and what the responder is built with. Apart from
 * responder.ts so that the pieces it delegates to (questions.ts) and those downstream of it
 * (answering.ts, the generated answers) name them without importing the responder itself.
 */
import type { PersonCue } from "../../ranking/needs-person.ts";
import type { Source } from "../../llm/prompt.ts";
import type { Reply } from "../door/message.ts";
import type { Conversations } from "./conversation.ts";
import type { Reading } from "./reading.ts";

export interface Decision {
  reply: Reply | null;
  /**
   * How it was answered, for the log: rule:<id>, help, code, tag, answer:<id>, answers:<id>,…, search, search_busy, welcome, fallback[:<ids considered>], not_found[:<ids>], none;
   * a follow-up's ranking prefixed followup:, "another"'s another:, and pick:<id> for an entry picked from the list before (docs/answers.md "Follow-ups");
   * ai:<cited>, ai-pending:<seq> from generated-answers.ts, late-answers.ts.
   */
  answer: string;
  /** A follower's text that nothing matched: listed by `replyd inbox` so operators can add rules. Also one answered that a person should read (`person`). */
  unmatched: boolean;
  /** Answered, and in the inbox all the same: the message says a person is needed (ranking/needs-person.ts). */
  person?: PersonCue;
  /** An article the ranking offered alone: how close the runner-up came (ranking/choice.ts), logged for the report's close calls. */
  margin?: number;
  /**
   * A question that reached the ranking, with the articles that hold a word of it: what a model
   * (serve --ai-url) is given to write the answer from. `reply` is then the retrieval reply, sent
   * when there is no model, past its caps, or when it fails.
   */
  generate?: { question: string; sources: Source[] };
  /** A text list of articles that is no ranking's (a tag's, a rule's), `about` what it lists: kept as the follower's turn, to pick from (responder.ts `movedOn`). */
  listed?: { about: string; ids: string[] };
  /** How the follower's text was read in their conversation, and what was ranked (reading.ts): `replyd ask --after` shows it. */
  reading?: Reading;
  /** A code's article: what the follower reads now, their turn — or, a list just shown holding it, that list's entry picked (sent-apart.ts). */
  entry?: string;
}

export interface ResponderOptions {
  /** A model is connected (serve --ai-url): questions carry the sources it is given; without one nothing is gathered for it. */
  forModel?: boolean;
  /** The followers' last turns (conversation.ts): without them every message is read alone. */
  conversations?: Conversations | null;
  now?: () => number;
  log?: (message: string) => void;
}
