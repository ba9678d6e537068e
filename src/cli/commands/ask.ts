import type { CommandContext } from "../context.ts";
import { defineCommand } from "../command.ts";
import { olderServerSaid, usage } from "../errors.ts";
import { rawOptions } from "../args.ts";
import { asTyped } from "../as-typed.ts";

interface Asked {
  question: string;
  /** With --after: that message, and how the question was read after it (absent from a server before 0.2.17). */
  after?: string;
  /** With --after given twice: the first, the message before `after` (0.2.26). */
  before?: string;
  read_as?: "alone" | "followup" | "another" | "pick";
  /** Why else it was read alone (a server from 0.2.28; server's wechat/answering/reading.ts AloneWhy). */
  alone_why?: string;
  /** Read alone because its own words name another article's title, keywords or questions (a server from 0.2.18). */
  moved?: boolean;
  answer: string;
  reply: { type: "text"; content: string } | { type: "news"; articles: { title: string; description: string; url: string }[] } | null;
  choice: string;
  /** Why, in words (absent from a server before issue 34's list rule). */
  choice_why?: string;
  /** Rules the text matches that answer with nothing (passed over). */
  rule_warnings?: string[];
  terms: { term: string; idf: number }[];
  /** The question's words no article holds, read as the two words one article holds ("bloodwork": a server from 0.2.21). */
  split?: string[];
  /** The words ranked in place of the question's: a complaint of someone's manner ranked on 投诉 or "complaint" alone (a server from 0.2.21). */
  ranked_as?: string;
  /** The question's words no article holds, nor a synonym group of them (absent from a server before 0.2.6). */
  unheld?: string[];
  postings_read: number;
  candidates: number;
  articles: { id: string; title: string; url: string; score: number; coverage: number; headCoverage?: number; head: number; passages: { text: string; score: number }[] }[];
  /** With a model configured: what it is given, and with generate=1 what it wrote and what the checks made of it. */
  model?: {
    sources: { n: number; id: string; title: string }[];
    note?: string;
    outcome?: string;
    output?: string;
    answer?: string;
    cited?: string[];
    detail?: string;
    ms?: number;
    tokens?: { prompt: number; completion: number } | null;
  };
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
};

/** A server before 0.2.26 reads one message before the question: its refusal of `before` said as what it is; any other error as it is. */
export const olderAsk = (e: unknown): unknown => olderServerSaid(e, "unknown_field", /\bbefore\b/, "0.2.26, which reads two messages before the question: give --after once, the message just before it");

/** What a follower sending the question would get, and the ranking behind it. */
export async function ask(c: CommandContext): Promise<void> {
  const q = c.args.join(" ").trim();
  if (!q) throw usage('ask needs a question: replyd ask "how do I get a refund?"');
  // Given twice, the two messages before the question, oldest first: the conversation remembers two turns.
  const afters = rawOptions(c.argv, "--after");
  if (afters.some((a) => !a.trim())) throw usage('--after needs the follower\'s message before the question: replyd ask --after "how do I cancel?" "is there a fee"');
  if (afters.length > 2) throw usage("--after is given at most twice: a follower's conversation is read with their last two messages, oldest first");
  const [before, after] = afters.length === 2 ? afters : [undefined, afters[0]];
  const r = await c
    .client()
    .call<Asked>({ method: "GET", path: "/api/cli/ask", fields: [["q", q], ...(c.flags.generate ? [["generate", "1"] as [string, string]] : []), ...(after === undefined ? [] : [["after", after] as [string, string]]), ...(before === undefined ? [] : [["before", before] as [string, string]])] })
    .catch((e: unknown) => {
      throw before === undefined ? e : olderAsk(e);
    });
  c.print(r, () => {
    const reply =
      r.reply === null
        ? "(no reply)"
        : r.reply.type === "text"
          ? r.reply.content
          : r.reply.articles.map((a) => `[news] ${a.title}\n${a.description}\n${a.url}`).join("\n\n");
    // A rule, help, a code or a tag answers before the ranking: what it would have offered is shown, as such.
    const before = /^(rule:|help$|code$|tag$)/.test(r.answer) ? `not used — the ${r.answer.startsWith("rule:") ? "rule" : r.answer} answered first; it would have given: ` : "";
    // How the conversation read it: a follow-up's ranking is of both messages, the earlier one's words weighing less.
    const readAs = r.after === undefined ? [] : [`after        ${r.before === undefined ? "" : `"${oneLine(r.before, 60)}", then `}"${oneLine(r.after, 100)}": read ${r.read_as === "followup" ? "as a follow-up, with it" : r.read_as === "another" ? "as asking another answer to it" : r.read_as === "pick" ? "as a pick from the list it got" : r.moved ? "alone: its own words name another article's title, keywords or questions, where the conversation moves (docs/answers.md \"Follow-ups\")" : `alone, as a question of its own${aloneBecause(r.alone_why)}`}`];
    const lines = [...readAs, `answered as  ${r.answer}`, ...(r.rule_warnings ?? []).map((w) => `warning      ${w}`), "", reply, "", `ranking      ${before}${r.choice}${r.choice_why ? ` (${r.choice_why})` : ""}; ${r.postings_read} index entries read, ${r.candidates} articles scored`];
    // A follow-up's terms are of both messages: printed as either wrote them.
    const typed = r.after === undefined ? q : `${r.before === undefined ? "" : `${r.before}\n`}${r.after}\n${q}`;
    if (r.ranked_as !== undefined) lines.push(`ranked as    "${oneLine(r.ranked_as, 40)}" alone: a complaint of someone's manner that no article is sure of, ranked on the word a complaints article is keyworded by (docs/answers.md)`);
    lines.push(`terms        ${r.terms.map((t) => `${asTyped(t.term, r.ranked_as ?? typed)}(${t.idf.toFixed(1)})`).join(" ") || "(none the articles hold)"}`);
    // The question's words no article holds: they count against every article's share of it (an
    // operator could not see why "pano mag cash in" held 19 % of the cash-in article).
    if (r.split?.length) lines.push(`split        ${r.split.map((w) => oneLine(w, 40)).join(" ")} (no article holds ${r.split.length === 1 ? "it" : "them"} whole: read as the two words one article holds)`);
    const unheld = r.unheld ?? [];
    if (unheld.length) lines.push(`not held     ${unheld.map((t) => asTyped(t, q)).join(" ")} (no article holds ${unheld.length === 1 ? "it" : "them"}: teach the question, or make ${unheld.length === 1 ? "it a synonym" : "them synonyms"} of the articles' words)`);
    for (const [i, a] of r.articles.entries()) {
      lines.push("", `${i + 1}. ${a.title}  [${a.id}]  score ${a.score.toFixed(2)} (${a.head.toFixed(2)} of it from the title, keywords and questions), holds ${Math.round(a.coverage * 100)}% of the question${a.headCoverage === undefined ? "" : `, its title, keywords and questions ${Math.round(a.headCoverage * 100)}%`}`);
      for (const p of a.passages) lines.push(`   ${p.score.toFixed(2).padStart(6)}  ${oneLine(p.text, 160)}`);
    }
    const m = r.model;
    if (m) {
      if (!m.note) lines.splice(1, 0, "             (the retrieval reply: with the model configured a follower gets its answer, and this when it fails, is late or capped)");
      lines.push("", `model        ${m.note ?? `given ${m.sources.map((s) => `[${s.n}] ${s.id}`).join(", ")}`}`);
      if (m.outcome) {
        const cost = m.ms === undefined ? "" : ` in ${(m.ms / 1000).toFixed(1)} s${m.tokens ? `, ${m.tokens.prompt}+${m.tokens.completion} tokens` : ""}`;
        lines.push(`generated    ${m.outcome}${cost}${m.detail ? `: ${m.detail}` : ""}`);
        if (m.answer) lines.push("", m.answer);
        else if (m.output) lines.push("", `(the model wrote, not sent:) ${oneLine(m.output, 400)}`);
      }
    }
    return lines.join("\n");
  });
}

export const askCommand = defineCommand({
  usage: "ask [...question]",
  summary: "show what a follower asking this would get, and why (a read key may ask)",
  description:
    "Sends the question as a follower's text would be answered — rules, codes, tags and help first — without logging it or messaging anyone, and prints the reply, then the ranking of the account's articles behind it: the question's terms with their weights, and the best articles with their scores and best passages. Use it to check how followers' questions are answered and which articles need better words. With a model configured it names the articles the model would be given, and with --generate asks it and shows what it writes, what the checks make of it, and what a follower would get.",
  examples: ['replyd ask "买了东西不想要了，还能退款吗？"', 'replyd ask "how do I return an order" --json', 'replyd ask --generate "还能退款吗"', 'replyd ask --after "周六几点开门" "那周日呢"'],
  options: [
    { flags: "--generate", help: "with a model configured (serve --ai-url): ask it too and show what it writes and what the checks make of it (counts in the caps)" },
    { flags: "--after <message>", help: "read the question as a follower's next message after this one (a follow-up, \"another\", a pick), and show the ranking it was read with; twice, after those two, oldest first (a question, then a pick from its list)" },
  ],
  run: ask,
});

/** Why a message after a question was read alone, as the server said it (wechat/answering/reading.ts AloneWhy); nothing from an older server. */
function aloneBecause(why: string | undefined): string {
  const said: Record<string, string> = {
    sure: ": it does not lean on the question before, and its own words are sure of an article",
    nothing_read: ": it does not lean on the question before, and no article was read (a list, or nothing, was sent)",
    unheld: ": it does not lean on the question before, and the article read holds too little of its words",
    unsure: ": read with the question before, nothing was sure enough",
  };
  return why !== undefined && Object.hasOwn(said, why) ? (said[why] as string) : "";
}
