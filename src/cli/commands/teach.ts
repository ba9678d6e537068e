/**
 * Teaching the ranking the account's own words (docs/answers.md "Teaching"): a follower's question
 * from the inbox added to the article that answers it, and the synonyms it applies.
 */
import type { Article } from "../../article/article.ts";
import type { SynonymGroup } from "../../doc/synonyms.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { LIMITS } from "../../article/text-rules.ts";
import { withoutOpening } from "../../ranking/courtesy.ts";
import { cutColumns } from "../table.ts";
import { besideLines, movedLines, type ListedBeside } from "../moved-lines.ts";
import { shellWord } from "../../base/shell-word.ts";

/** Past this many characters, a message taught whole is said to lend its story's words too. */
const LONG_TAUGHT = 80;

/**
 * A message over the length of a question, refused by a server before 0.2.27 as an article's invalid
 * field: said as what it is (the headline had said "the article is invalid" — a theatre's
 * walkthrough). A later server's headline says so itself.
 */
export function tooLongSaid(e: unknown): unknown {
  if (!(e instanceof CLIError) || e.code !== "invalid_article" || e.detailLines.length !== 1 || !e.message.startsWith("the article is invalid")) return e;
  const reason = /^\s*questions: (.+ is \d+ characters and a question at most \d+.*)$/.exec(e.detailLines[0] as string)?.[1];
  return reason ? new CLIError(e.code, reason, e.exitCode) : e;
}

/** replyd teach SEQ ARTICLE: the text of inbox message SEQ becomes one of the article's questions. */
export async function teach(c: CommandContext): Promise<void> {
  const [seq, id, ...rest] = c.args;
  if (!seq || !id || rest.length || !/^[1-9]\d{0,15}$/.test(seq)) throw usage(`teach needs an inbox message's number (its SEQ in replyd inbox, from 1) and an article id: replyd teach 41 refund${seq && !/^[1-9]\d{0,15}$/.test(seq) ? ` ("${seq}" is no SEQ)` : ""}`);
  const as = c.str("--as");
  const fields: [string, string][] = [["inbox", seq], ["id", id], ...(as === undefined ? [] : [["as", as] as [string, string]])];
  const client = c.client();
  const r = await client
    .call<{ seq: number; question: string; message: string; asked_of?: number; article: Article; moved?: { seq: number; text: string; was: string | null; alone?: boolean }[]; moved_count?: number; listed_beside?: ListedBeside[]; listed_beside_count?: number; message_now?: string | null; message_leans?: boolean; turned_down?: boolean; names_others?: { id: string; as: string }[]; after_question?: { seq: number; text: string } }>({ method: "POST", path: "/api/cli/teach", fields })
    .catch((e: unknown) => {
      throw tooLongSaid(e);
    });
  const moved = r.moved ?? [];
  const movedCount = r.moved_count ?? moved.length;
  // answer:<id> or answers:<id>,… as logged; null: the fallback.
  const ownWords = r.message_now === undefined ? undefined : r.message_now === null ? [] : r.message_now.replace(/^answers?:/, "").split(",");
  c.print(r, () =>
    [
      `taught ${r.article.id} ${JSON.stringify(r.article.title)}${client.inAccount} (now rev ${r.article.rev}, ${r.article.questions.length} question${r.article.questions.length === 1 ? "" : "s"}): "${r.question}"`,
      // A server before --as answers no message.
      ...(typeof r.asked_of === "number"
        ? [`the question of message ${r.asked_of}, which message ${r.seq} asked another answer to${r.message !== r.question ? `: "${cutColumns(r.message, 80)}"` : ""}`]
        : typeof r.message === "string" && r.message !== r.question
          ? [`for message ${r.seq}: "${cutColumns(r.message, 80)}"`]
          : []),
      ...(r.turned_down ? [`note: this article was offered for it, and message ${r.seq} asked for another answer`] : []),
      `followers asking it get this article alone, and something close to it finds it first${r.article.deleted ? " once it is restored (it is deleted)" : ""}`,
      // A whole message told with its story lends every word of it to the article (a theatre's walkthrough:
      // "any ideas for my wifes birthday" got the refunds article after "can i get a refund i booked the wrong night for my wife's birthday…").
      ...(as === undefined && [...r.question].length > LONG_TAUGHT
        ? [`note: taught whole, a long message lends all its words to this article — questions sharing only its story's words may now find it; the need in a few words (replyd set ${r.article.id} questions-=… and --as "…") pulls only questions about it`]
        : []),
      // A few words sent right after a question of the follower's, taught as sent: every follower sending them gets this article, whatever they asked before (a pet hospital's walkthrough: 要住院吗 after 母猫绝育多少钱啊).
      ...(r.after_question
        ? [
            `note: the follower sent it right after message ${r.after_question.seq}, "${cutColumns(r.after_question.text, 60)}": taught as sent, every follower sending "${cutColumns(r.question, 40)}" gets this article alone, whatever they asked before it; if it asked of that question, take it back (replyd set ${r.article.id} questions-=${shellWord(r.question)}) and teach the need in words that name it (replyd teach ${r.seq} ${r.article.id} --as "…")`,
          ]
        : []),
      // Another article's title or keyword written out in it: lent to this one now (a service desk's walkthrough).
      ...(r.names_others?.length
        ? [
            `note: it names what other articles are about — ${r.names_others.map((o) => `"${cutColumns(o.as, 40)}" (${o.id})`).join(", ")}: followers asking of ${r.names_others.length > 1 ? "those" : "that"} may now get this article; a phrasing without ${r.names_others.length > 1 ? "them" : "it"} (replyd set ${r.article.id} questions-=… and --as "…") pulls only questions about this one`,
          ]
        : []),
      // With --as, the message's own words are the ranking's still: what they get, when not this article
      // alone — a list it leads is said too ("how much does it cost" still got a list after --as, unsaid: a bookkeeping app's walkthrough).
      ...(ownWords !== undefined && ownWords[0] === r.article.id && ownWords.length > 1
        ? [
            `message ${r.asked_of ?? r.seq}'s own words get a list this article leads (${ownWords.join(", ")})${
              r.message_leans ? ": teach refuses them as they are — they name what they ask of only with what was said before them (a follow-up's few words, or a pronoun); the conversation answers them after a question that names it" : `; to send them this article alone: replyd teach ${r.asked_of ?? r.seq} ${r.article.id}`
            }`,
          ]
        : []),
      ...(ownWords !== undefined && ownWords[0] !== r.article.id
        ? [
            // Of "another", the question it asked another answer to (a courier's operator read "message 138's own words" of a 换一个).
            `message ${r.asked_of ?? r.seq}'s own words still get ${ownWords.length ? ownWords.join(", ") : "the fallback"}${
              r.message_leans
                ? ": teach refuses them as they are — they name what they ask of only with what was said before them (a follow-up's few words, or a pronoun); the conversation answers them after a question that names it"
                : [...withoutOpening(r.message ?? "")].length > LIMITS.question
                  ? `; the message is longer than a question may be (${LIMITS.question} characters): to answer more of its words with this article, teach another short phrasing of them (--as "…")`
                  : `; to answer them with this article too: replyd teach ${r.asked_of ?? r.seq} ${r.article.id}`
            }`,
          ]
        : []),
      // A server before 0.2.14 says nothing of the other questions, one before 0.2.19 nothing of lists.
      ...(movedCount || r.listed_beside_count
        ? [
            ...movedLines(moved, movedCount, "other "),
            ...besideLines(r.listed_beside, r.listed_beside_count),
            `if it should not answer them, take the question back (replyd set ${r.article.id} questions-=${shellWord(r.question)}) and teach words that name the need (--as "…")`,
          ]
        : []),
    ].join("\n"),
  );
}

/** replyd synonyms: the groups the ranking reads as one word each. */
export async function synonyms(c: CommandContext): Promise<void> {
  if (c.args.length) throw usage("synonyms lists the synonyms; change them by importing a document of matter synonyms (replyd import synonyms.json)");
  const r = await c.client().call<{ synonyms: SynonymGroup[]; groups: number }>({ method: "GET", path: "/api/cli/synonyms" });
  c.print(r, () =>
    r.synonyms.length
      ? [...r.synonyms.map((g, i) => `${String(i).padStart(4)}  ${g.join(" = ")}`), "", `${r.groups} group${r.groups === 1 ? "" : "s"}`].join("\n")
      : 'no synonyms; import a document of matter synonyms: {"format":"replyd/1","matter":"synonyms","synonyms":[["Visa","credit card"]]}',
  );
}

export const teachCommand = defineCommand({
  usage: "teach <seq> <article>",
  summary: "add a follower's question (inbox message SEQ) to the questions of the article that answers it",
  description:
    "Adds the text of a follower's message in the inbox (its number, as replyd inbox shows it) to the questions of an article (its id, or its code): followers who ask it then get that article alone, and something close to it finds it first. --as teaches your own short phrasing of that message instead: the need in words that name it, without the message's circumstances or everyday words (how long, 多久) that would pull other followers' questions to the article. A message asking for another answer (换一个, another, 不是这个) teaches the question it asked another answer to: the follower's message before it, within ten minutes, past other such messages and thanks. Refused when the message is not a follower's text, the article does not exist, has that question already, or has the most questions it may (50); a question is at most 200 characters.",
  examples: ["replyd teach 41 refund", 'replyd teach 41 reservation --as "晚到了位子还留吗"', "replyd teach 41 refund --json"],
  options: [{ flags: "--as <phrasing>", help: "teach this phrasing of the message instead of its whole text" }],
  run: teach,
});

export const synonymsCommand = defineCommand({
  usage: "synonyms",
  summary: "list the synonyms the ranking applies (change them: import a document of matter synonyms)",
  description:
    'Lists the operator\'s synonyms: groups of phrases the ranking reads as one word, in questions and articles alike ("Visa" finds an article that says "credit card"). They are written like rules: replyd import of a document of matter synonyms merges its groups (a group sharing a phrase with stored ones replaces them), replyd restore replaces them all, and they travel in backups of all and synonyms.',
  examples: ["replyd synonyms", "replyd synonyms --json"],
  run: synonyms,
});
