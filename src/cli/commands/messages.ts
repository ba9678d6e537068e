import { basename } from "node:path";
import type { Param } from "../../sign.ts";
import type { StoredMedia } from "../../server/media.ts";
import { formatBytes } from "../args.ts";
import { isLoopback } from "../../base/loopback.ts";
import type { CommandContext } from "../context.ts";
import { olderServerSaid, usage } from "../errors.ts";
import { readLocal } from "../files.ts";
import { type LoggedMessage, type ReplyWindow } from "../../store/follower-log.ts";
import type { GeneratedEntry } from "../../store/generated-log.ts";
import { defineCommand, PAGING } from "../command.ts";
import { cutColumns, table } from "../table.ts";
import { needsPerson } from "../../ranking/needs-person.ts";

type Entry = LoggedMessage & { seq: number; reply_window?: ReplyWindow; answered_now?: string; asked_of?: number; picked?: { seq: number; article: string } };

/** Whether an entry can still be answered: answered, open (until when, how many left), or closed. */
function replyState(m: Entry, canSend: boolean): string {
  if (m.direction === "out") return `→ sent by ${m.sent_by ?? "?"}${m.reply_to !== null ? ` for ${m.reply_to}` : ""}`;
  const w = m.reply_window;
  const answered = m.answered_at ? "answered" : "";
  if (!w || !canSend) return answered;
  const open = w.open ? `open ${w.left} until ${w.until?.slice(5, 16).replace("T", " ")}` : "closed";
  return answered ? `${answered}, ${open}` : open;
}

/**
 * How an entry was answered; taught since, or its articles changed, what it gets now, so that the
 * mended reads as mended — the articles it was considered against left out, or the column had cut
 * "now" away ("fallback:api-key,client-download,permission… → now answe…").
 */
export const answerShown = (m: Pick<Entry, "answer" | "answered_now" | "picked">): string =>
  m.answered_now
    ? `${firstListed(m.answer.replace(/^((?:[a-z]+:)?(?:fallback|not_found)):.*$/, "$1"))} → now ${m.answered_now}`
    : m.picked
      ? `${firstListed(m.answer)} → picked ${m.picked.article}`
      : m.answer;

/**
 * A list's first article and how many more ("answers:checkin+2"), of what an entry got: beside "now",
 * the column had cut what it gets now away ("answers:latecomers,box-office,gallery → now…": two
 * walkthroughs); beside what the follower picked from it too. What it gets now is whole, whatever the column keeps of it: shortened too, a list
 * changed past its first had read as unchanged (a review).
 */
const firstListed = (answer: string): string => answer.replace(/^((?:[a-z]+:)?answers:)([^,]+)((?:,[^,]+)+)$/, (_, kind: string, first: string, rest: string) => `${kind}${first}+${rest.split(",").length - 1}`);

/** A server before 0.2.26 knows no inbox of lists: its refusal said as what it is (a review); any other error as it is. */
export const olderInbox = (e: unknown): unknown =>
  olderServerSaid(e, "bad_request", /"inbox" must be/, "0.2.26, which lists the questions answered with a list (inbox --lists): replyd inbox --all shows every message, with how it was answered");

/**
 * What a person reads it for (ranking/needs-person.ts): "(for a person: charged twice) " — of a
 * message answered with articles and in the inbox all the same, and of one nothing answered (0.2.30:
 * the inbox is in time order, and 急！！…扣了两遍 had looked no different from zm几点开: a gym's walkthrough).
 */
const forPerson = (m: Entry): string => {
  if (m.direction === "out" || !m.unmatched) return "";
  const cue = needsPerson(m.content ?? "");
  return cue ? `(for a person: ${cue.replaceAll("_", " ")}) ` : "";
};

/** "换一个" names the question it asked another answer to: the one replyd teach SEQ teaches for it (a server before 0.2.12 names none). */
const anotherOf = (m: Entry): string => (typeof m.asked_of === "number" ? ` (another answer to ${m.asked_of})` : "");

/** The model's calls: what each follower asked, what became of the answer, and the articles it cited. */
async function generatedInbox(c: CommandContext): Promise<void> {
  const page = await c.client().call<{ items: GeneratedEntry[]; total: number }>({ method: "GET", path: "/api/cli", fields: [["inbox", "ai"], ...c.paging()] });
  c.print(page, () => {
    if (!page.items.length) return "no model calls logged";
    // The heads line up with each other; each call's answer and sources follow on their own lines.
    const heads = table(
      page.items.map((g) => [
        String(g.seq),
        g.at.slice(0, 19).replace("T", " "),
        g.openid,
        g.outcome,
        `${g.ms === null ? "" : `${(g.ms / 1000).toFixed(1)} s`}${g.tokens_prompt === null ? "" : ` ${g.tokens_prompt}+${g.tokens_completion} tok`}`,
        cutColumns(g.question.replace(/\s+/g, " "), 80),
      ]),
      [{ right: true }, {}, { max: 28 }, { max: 24 }, { max: 20 }],
    );
    const rows = page.items.map((g, i) => {
      const what = g.answer !== null ? `→ ${cutColumns(g.answer.replace(/\s+/g, " "), 160)}` : g.detail ? `× ${cutColumns(g.detail, 160)}` : "";
      const used = `  sources: ${g.sources.map((s) => s.id).join(", ") || "(none)"}${g.cited.length ? `; cited: ${g.cited.join(", ")}` : ""}`;
      return [heads[i] as string, what && `         ${what}`, `       ${used}`].filter(Boolean).join("\n");
    });
    return [...rows, "", `${page.items.length} of ${page.total}; --json has each call's passages and the model's own words`].join("\n");
  });
}

export async function inbox(c: CommandContext): Promise<void> {
  if (c.flags.ai) {
    if (c.flags.all || c.flags.lists) throw usage(`inbox --ai lists the model's calls; --${c.flags.all ? "all lists the message log" : "lists the questions answered with a list"}: one or the other`);
    return generatedInbox(c);
  }
  if (c.flags.all && c.flags.lists) throw usage("inbox --all lists every message; --lists the questions answered with a list: one or the other");
  const fields: Param[] = [["inbox", c.flags.all ? "all" : c.flags.lists ? "lists" : "unmatched"], ...c.paging()];
  const page = await c
    .client()
    .call<{ items: Entry[]; total: number; reply_limit?: number; platform_configured?: boolean; account?: string | null }>({ method: "GET", path: "/api/cli", fields })
    .catch((e: unknown) => {
      throw c.flags.lists ? olderInbox(e) : e;
    });
  const canSend = page.platform_configured !== false;
  // Nothing unmatched: because every message was answered, or because none has come yet (a new server, a callback not connected).
  const logged = page.total || c.flags.all || c.json ? null : (await c.client().call<{ total: number }>({ method: "GET", path: "/api/cli", fields: [["inbox", "all"], ["limit", "1"]] })).total;
  c.print(page, () => {
    if (!page.items.length && logged === 0) return "no follower messages logged yet: they arrive once the account's callback points here (docs/wechat.md)";
    if (!page.items.length && page.total) return `nothing on this page: ${page.total} in all (--offset past them)`;
    if (!page.items.length) return c.flags.all ? "no messages logged" : c.flags.lists ? "no question got a list, and no follower asked for another answer: the ranking was sure of every one it answered (replyd inbox for those it answered with nothing)" : "nothing unmatched: every follower message found an answer";
    const rows = page.items.map((m) => [
      String(m.seq),
      m.received_at.slice(0, 19).replace("T", " "),
      m.from_user,
      answerShown(m),
      replyState(m, canSend),
      `${forPerson(m)}${m.type === "event" ? `[${m.event}] ` : m.type === "text" || m.direction === "out" ? "" : `[${m.type}] `}${(m.content ?? "").replace(/\s+/g, " ")}${anotherOf(m)}`,
    ]);
    return [
      ...table([["SEQ", "RECEIVED", "FROM", "ANSWER", "REPLY", "TEXT"], ...rows], [{ right: true }, {}, { max: 28 }, { max: 44 }, { max: 40 }]),
      "",
      ...(c.flags.lists ? ["", "the ranking was unsure of these: each got the articles listed (answers:FIRST,…), the first one leading; teach one to the article that answers it and it gets that article alone. \"→ picked ID\": the follower chose that entry of the list next (第二个, \"2\") — what answered them. A 换一个 / \"another\" (another answer to SEQ) turned down what that question got: teach the 换一个's SEQ to teach it"] : []),
      `${page.items.length} of ${page.total}${page.account ? ` (account ${page.account})` : ""}; ${canSend ? 'answer one with: replyd reply <seq> "text" (or --article ID)' : "no follower can be answered from here: the server has no AppSecret (serve --wx-secret)"}; teach its question to the article that answers it: replyd teach <seq> <article>`,
    ].join("\n");
  });
}

export async function media(c: CommandContext): Promise<void> {
  const [action, file] = c.args;
  if (action !== "put" || !file) throw usage("media put FILE uploads an image and prints its URL");
  const { bytes } = readLocal(c.io, file);
  const r = await c.client().call<StoredMedia & { public?: boolean }>({ method: "POST", path: "/api/cli", files: [{ name: "media", filename: basename(file), bytes }] }, "upload");
  // Not --public-url's but the address the server listens on (a server before `public` was sent: a loopback one).
  const local = r.public === false || (r.public === undefined && URL.canParse(r.url) && isLoopback(new URL(r.url).hostname));
  if (local) c.io.err(`replyd: warning: ${r.url} is the address the server listens on, not one on the internet (no --public-url): followers' phones may not load it; start the server with --public-url https://… and upload again`);
  c.print(r, () => `${r.url}\n(${r.type}, ${formatBytes(r.size)}${r.existed ? ", already uploaded" : ""}) — use it as picurl=${r.url}`);
}

export const inboxCommand = defineCommand({
  usage: "inbox",
  summary: "follower messages that matched nothing, newest first",
  description:
    "Lists the follower messages nothing answered (with --lists, the questions the ranking answered with a list of articles, unsure which answers — the first may not —, and each 换一个 / another that turned an answer down and got more; with --all, every logged message, replies included), newest first, each with its number (SEQ) and whether the follower can still be answered (replyd reply SEQ …); replyd teach SEQ ARTICLE adds a follower's question to the article that answers it. With --ai, the calls to the model instead (serve --ai-url): each question, what became of the answer (reply, customer_service, pending, next_message, refused:<check>, failed:<kind>), its time and tokens, the articles it was given and cited.",
  examples: ["replyd inbox", "replyd inbox --lists", "replyd inbox --all --limit 200 --json", "replyd inbox --ai"],
  options: [{ flags: "--all", help: "every logged message, not only the unmatched" }, { flags: "--lists", help: "the questions the ranking answered with a list, and the 换一个s that got more: to check and teach" }, { flags: "--ai", help: "the model's calls: questions, answers, outcomes, sources" }, ...PAGING],
  run: inbox,
});

export const mediaCommand = defineCommand({
  usage: "media <action> <file>",
  summary: "upload an image (media put FILE) and print its URL for picurl",
  description: "Uploads a cover picture (JPEG, PNG, GIF or WebP, up to the server's --max-media) and prints the URL to use as an article's picurl. Uploading the same picture again is harmless.",
  examples: ["replyd media put cover.jpg"],
  run: media,
});
