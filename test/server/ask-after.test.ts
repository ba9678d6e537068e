/**
 * `replyd ask --after`: a question read as a follower's next message after another (docs/answers.md
 * "replyd ask"), in a conversation of its own — a follow-up, "another" — with the ranking it was read
 * with; no follower's conversation read or kept, nothing logged.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CODE } from "../../src/base/errors.ts";
import { MAX_QUESTION_BYTES, readChoiceOf } from "../../src/server/ask.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { doc, READER, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());
const call: (typeof t)["call"] = (...a) => t.call(...a);

const INSURER = [
  { id: "cancel", title: "Cancelling your policy", url: "https://example.com/cancel", keywords: ["cancel"], body: "You can cancel within 14 days of buying your policy and get a full refund. After 14 days we refund the premium for the days you haven't used, minus a £25 cancellation fee. To cancel, call us on 0800 555 0100." },
  { id: "paying", title: "Paying monthly or annually", url: "https://example.com/paying", keywords: ["monthly payments"], body: "Pay annually by card, or monthly by Direct Debit in 11 payments. Switching from monthly to annual has no extra fee. Change your payment date in the app." },
  { id: "claim", title: "Making a claim", url: "https://example.com/claim", keywords: ["claims line"], body: "Call the claims line any time. A loss adjuster may visit your home. There is no fee to make a claim, and we aim to settle within 10 days." },
  { id: "travel", title: "Cover abroad", url: "https://example.com/travel", keywords: ["holiday"], body: "Your belongings are covered abroad for up to 60 days a year, in any country. Keep receipts for anything worth more than £1,500." },
];

beforeEach(async () => {
  const r = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(INSURER, { matter: "articles" }) }] });
  expect(r.status).toBe(200);
});

type Asked = { answer: string; read_as?: string; after?: string; choice: string; choice_why: string; articles: { id: string }[]; terms: { term: string }[] };
const ask = async (q: string, after?: string, key?: typeof READER) => call("GET", "/api/cli/ask", [["q", q], ...(after === undefined ? [] : [["after", after] as [string, string]])], key ? { key } : {});

test("a question asked after another is read as the follower's next message: 'is there a fee' after cancelling is a follow-up, the cancelling article first, ranked with the earlier words", async () => {
  const alone = (await ask("is there a fee")).data as Asked;
  expect(alone.read_as).toBeUndefined();
  expect(alone.articles[0]?.id).not.toBe("cancel");
  const r = await ask("is there a fee", "How do I cancel my policy?");
  expect(r.status).toBe(200);
  const after = r.data as Asked;
  expect(after).toMatchObject({ after: "How do I cancel my policy?", read_as: "followup", answer: expect.stringMatching(/^followup:answers?:cancel\b/) });
  expect(after.choice_why).toContain("a follow-up");
  // The ranking shown is the one it was read with: the earlier message's words are among its terms.
  expect(after.articles[0]?.id).toBe("cancel");
  expect(after.terms.map((x) => x.term)).toContain("polici");
});

test("\"another\" after a question: the question ranked again without what it was offered", async () => {
  const first = (await ask("cancellation fee")).data as Asked;
  expect(first.answer).toBe("answer:cancel");
  const r = (await ask("another", "cancellation fee")).data as Asked;
  expect(r.read_as).toBe("another");
  expect(r.answer).toMatch(/^another:/);
  expect(r.answer).not.toContain("cancel");
  expect(r.choice_why).toContain("another answer");
});

test("a question of its own after another is read alone, as a follower's would be; a follow-up whose words name another article's head is read alone too, said as moved", async () => {
  const r = (await ask("do you cover things abroad", "How do I cancel my policy?")).data as Asked & { moved?: boolean };
  expect(r).toMatchObject({ read_as: "alone", answer: "answer:travel" });
  expect(r.moved).toBeUndefined();
  // "and abroad?" leans on "and", and the travel article's head names it (a plumber's operator read "as a question of its own" and concluded the cue was missed).
  const moved = (await ask("and abroad?", "How do I cancel my policy?")).data as Asked & { moved?: boolean };
  expect(moved).toMatchObject({ read_as: "alone", moved: true, answer: expect.stringMatching(/^answers?:travel\b/) });
});

test("asking after a message reads no follower's conversation and keeps none, logs nothing, and a read key may ask", async () => {
  // A follower asks of claims; an operator's ask after cancelling does not become their turn.
  const at = () => Math.floor(t.clock.now() / 1000);
  const say = async (content: string) => {
    t.clock.advance(1000);
    const text = await (await t.handle(wxPost(textMsg(content, at()), at()))).text();
    return text === "success" ? null : (parseXml(text) as XmlNode);
  };
  await say("how do I make a claim");
  await t.log.settled();
  const logged = ((await call("GET", "/api/cli", [["inbox", "all"]])).data.items as unknown[]).length;
  expect((await ask("is there a fee", "How do I cancel my policy?", READER)).data).toMatchObject({ read_as: "followup" });
  await t.log.settled();
  expect(((await call("GET", "/api/cli", [["inbox", "all"]])).data.items as unknown[]).length).toBe(logged);
  // The follower's "is there a fee" follows their own claim question: the claims article, which says there is none.
  const news = (await say("is there a fee"))?.Articles as XmlNode | undefined;
  expect(JSON.stringify(news)).toContain("Making a claim");
  expect(JSON.stringify(news)).not.toContain("Cancelling");
  // …and the ask's conversation is its own: a follower whose openid is the ask's own is not read after it.
  t.clock.advance(1000);
  const own = textMsg("is there a fee", at()).replace("o_follower", "replyd-ask");
  const signed = wxPost(own, at());
  const url = new URL(signed.url);
  url.searchParams.set("openid", "replyd-ask");
  expect((await t.handle(new Request(url.toString(), { method: "POST", body: own, headers: signed.headers }))).status).toBe(200);
  await t.log.settled();
  const items = (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as { from_user: string; answer: string; direction: string }[];
  expect(items.find((m) => m.from_user === "replyd-ask" && m.direction === "in")?.answer).not.toMatch(/^followup:/);
  // Nor does one ask --after see another's: "another" after a question of its own, with no question
  // before it in that call but the one given, is the next articles for that question.
  expect(((await ask("another", "do you cover things abroad")).data as Asked).answer).not.toContain("cancel");
});

test("a number after a list picks from it: read as a pick; \"another\" names no words of its own as not held", async () => {
  const list = (await ask("fee")).data as Asked;
  expect(list.choice).toBe("list");
  const picked = (await ask("2", "fee")).data as Asked;
  expect(picked).toMatchObject({ read_as: "pick", answer: `pick:${list.articles[1]?.id}` });
  const another = (await ask("not what i asked", "cancellation fee")).data as Asked & { unheld?: string[] };
  expect(another.read_as).toBe("another");
  expect(another.unheld).toBeUndefined();
  expect(another.choice_why).toStartWith("asks for another answer: the question before ranked again");
  // Saying what it means after it: those words ranked, said so.
  const meant = (await ask("not that one, i mean paying monthly", "cancellation fee")).data as Asked;
  expect(meant).toMatchObject({ read_as: "another", choice_why: expect.stringContaining("saying what it means") });
  expect(meant.articles[0]?.id).toBe("paying");
});

test("the message before is bounded as a follower's: empty, or past the platform's 2,048 bytes, refused", async () => {
  const empty = await ask("is there a fee", "   ");
  expect({ status: empty.status, message: empty.error?.message }).toMatchObject({ status: 400, message: expect.stringContaining('"after"') });
  const long = await ask("is there a fee", "x".repeat(MAX_QUESTION_BYTES + 1));
  expect({ status: long.status, code: long.error?.code }).toEqual({ status: 400, code: CODE.text_too_long });
  expect((await ask("is there a fee", "x".repeat(MAX_QUESTION_BYTES))).status).toBe(200);
});

test("read after a question, what the word search found is one article found by it, said as a follow-up's or another's (followup:search, another:search)", () => {
  const reading = (how: "followup" | "another") => ({ how, question: "q", asked: "before", ranked: { articles: [] } }) as unknown as Parameters<typeof readChoiceOf>[0];
  expect(readChoiceOf(reading("followup"), "followup:search")).toEqual({ choice: "one", choice_why: expect.stringMatching(/^a follow-up: .*word search/) });
  expect(readChoiceOf(reading("another"), "another:search")).toEqual({ choice: "one", choice_why: expect.stringMatching(/^asks for another answer: .*word search/) });
  expect(readChoiceOf(reading("followup"), "followup:fallback").choice).toBe("none");
});

test("a message the ranking offers nothing for and the word search finds says so (it had said \"none\")", async () => {
  const about = { id: "about", title: "About us", url: "https://example.com/about", body: "A family firm since 1990." };
  expect((await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc([about], { matter: "articles" }) }] })).status).toBe(200);
  const alone = (await ask("about")).data as Asked;
  expect(alone).toMatchObject({ answer: "search", choice: "one", choice_why: expect.stringContaining("word search") });
});

test("two messages before the question (before, then after), as the conversation remembers two turns: a second 'another' leaves out what the first got; 'before' alone, empty or too long is refused", async () => {
  const ask2 = async (q: string, after: string, before: string) => call("GET", "/api/cli/ask", [["q", q], ["after", after], ["before", before]]);
  // Fees enough that a second "another" has more to offer than the first.
  const fees = ["duplicate documents", "changes mid-term", "late payment", "reinstating a lapsed policy", "paper statements"].map((what, i) => ({ id: `fee${i}`, title: `Fee for ${what}`, url: `https://example.com/fee${i}`, body: `There is a cancellation-style fee of £${10 + i} for ${what}.` }));
  expect((await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(fees, { matter: "articles" }) }] })).status).toBe(200);
  const first = (await ask("another", "cancellation fee")).data as Asked & { before?: string };
  expect(first.answer).toMatch(/^another:answers?:/);
  const offeredFirst = first.answer.replace(/^another:answers?:/, "").split(",");
  // One message before: the "another" has nothing before it to take the next of.
  expect(((await ask("another", "another")).data as Asked).answer).toBe("another:not_found");
  const r = await ask2("another", "another", "cancellation fee");
  expect(r.status).toBe(200);
  const second = r.data as Asked & { before?: string };
  expect(second).toMatchObject({ before: "cancellation fee", after: "another", read_as: "another" });
  expect(second.answer).toMatch(/^another:answers?:/);
  const offeredSecond = second.answer.replace(/^another:(?:answers?:)?/, "").split(",");
  for (const id of ["cancel", ...offeredFirst]) expect(offeredSecond).not.toContain(id);
  expect((await call("GET", "/api/cli/ask", [["q", "another"], ["before", "cancellation fee"]])).status).toBe(400);
  expect((await ask2("another", "another", "  ")).status).toBe(400);
  expect((await ask2("another", "another", "x".repeat(MAX_QUESTION_BYTES + 1))).error?.code).toBe(CODE.text_too_long);
});

test("read alone after a question, the answer says why: its own words sure of an article, or the article read holding too little of them", async () => {
  // A bike share's walkthrough: "read alone, as a question of its own" and nothing more, after a teach had made it so.
  const why = async (q: string, after: string) => ((await ask(q, after)).data as Asked & { alone_why?: string }).alone_why;
  expect(await why("do you cover things abroad", "How do I cancel my policy?")).toBe("sure");
  expect(await why("my neighbour's tree fell on my car", "How do I cancel my policy?")).toBe("unheld");
  // A follow-up says none.
  expect(await why("is there a fee", "How do I cancel my policy?")).toBeUndefined();
});
