/**
 * The client's side of teaching (issue 34 D) against a listening server: questions given and shown,
 * lists appended to with +=, the inbox's SEQ, `teach`, `synonyms` and the import of a synonyms
 * document; usage errors found before any request.
 */
import { CLIError } from "../../src/cli/errors.ts";
import { olderServer } from "../../src/cli/commands/import.ts";
import { olderInbox } from "../../src/cli/commands/messages.ts";
import { olderAsk } from "../../src/cli/commands/ask.ts";
import { byOlderServer } from "../../src/cli/commands/reply.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerShown } from "../../src/cli/commands/messages.ts";
import { tooLongSaid } from "../../src/cli/commands/teach.ts";
import { listening } from "./listening.ts";
import { TOKEN, textMsg, wxPost } from "../wechat/helpers.ts";

let s: Awaited<ReturnType<typeof listening>>;
beforeAll(async () => (s = await listening({ wechat: { token: TOKEN } })));
afterAll(() => s.close());
const cli = (...argv: string[]) => s.cli(...argv);
const say = async (text: string) => {
  const at = Math.floor(Date.now() / 1000);
  const req = wxPost(textMsg(text, at), at);
  return (await fetch(s.server.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: await req.text(), headers: { "content-type": "text/xml" } })).text();
};

/** The SEQ of follower message `text` once the log holds it (written in batches: asked again for up to a second). */
async function seqOf(text: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const seq = JSON.parse((await cli("inbox", "--all", "--json")).out).items.find((m: { content: string }) => m.content === text)?.seq as number | undefined;
    if (seq !== undefined) return seq;
    await Bun.sleep(20);
  }
  throw new Error(`message not logged: ${text}`);
}

test("questions= given twice is one list, one a line in show; += adds to it, -= takes from it; two of them on one list, or either on add, are usage errors", async () => {
  let r = await cli("add", "id=returns", "title=Returns and refunds", "url=https://shop.example/returns", "body=Items can be returned within 30 days.", "questions=还能退吗", "questions=Can I return it, unopened?");
  expect(r.code).toBe(0);
  r = await cli("show", "returns");
  expect(r.out).toContain("questions   还能退吗\n            Can I return it, unopened?\n");
  r = await cli("set", "returns", "questions+=can i return it, unopened?", "questions+=I want my money back", "keywords+=refund,exchange");
  expect(r).toMatchObject({ code: 0, out: "revised returns: now rev 2" });
  r = await cli("ls", "--json");
  expect(JSON.parse(r.out).items[0]).toMatchObject({ id: "returns", keywords: ["refund", "exchange"], questions: ["还能退吗", "Can I return it, unopened?", "I want my money back"] });
  for (const argv of [
    ["set", "returns", "questions=a", "questions+=b"],
    ["set", "returns", "questions+=a", "questions-=b"],
    ["set", "returns", "title+=x"],
    ["set", "returns", "title-=x"],
    ["add", "title=x", "url=https://e.com/", "keywords+=a"],
    ["add", "title=x", "url=https://e.com/", "questions-=a"],
  ]) {
    r = await cli(...argv);
    expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
  }
  expect((await cli("show", "returns")).out).toContain("rev         2");
  // -= takes one back, as a follower's message meets it; one the article does not hold is refused.
  r = await cli("set", "returns", "questions-=I WANT MY MONEY BACK!", "keywords-=Exchange");
  expect(r).toMatchObject({ code: 0, out: "revised returns: now rev 3" });
  expect(JSON.parse((await cli("ls", "--json")).out).items[0]).toMatchObject({ keywords: ["refund"], questions: ["还能退吗", "Can I return it, unopened?"] });
  // A follower's question it came first for by a question taught: taken back, said, with what it gets now.
  // Added: the followers' recent questions it now comes first for, as a teach says (+= had said nothing: a walkthrough).
  expect(await say("where is my parcel")).not.toContain("Returns and refunds");
  r = await cli("set", "returns", "questions+=where is my parcel");
  expect(r.out).toMatch(/^revised returns: now rev 4\nit now comes first for 1 question followers asked lately, which it did not before:\n +\d+  "where is my parcel" \(before: [^;]+; now alone\)$/);
  expect(await say("where is my parcel")).toContain("Returns and refunds");
  r = await cli("set", "returns", "questions-=where is my parcel");
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/^revised returns: now rev 5\nit no longer comes first for 1 question followers asked lately:\n +\d+  "where is my parcel" \(now: [^)]+\)$/);
  r = await cli("set", "returns", "questions-=refund please");
  expect(r.code).toBe(1);
  expect(r.err).toContain('holds no question "refund please"');
  // Said as what it is, not as an invalid article.
  expect(r.err).toContain("the article does not hold what was to be taken from it; nothing was written");
  expect(r.err).not.toContain("the article is invalid");
});

test("the inbox's answer column shows what a mended entry gets now, the articles it was once considered against left out", () => {
  expect(answerShown({ answer: "fallback:api-key,client-download,permission", answered_now: "answer:api-key" })).toBe("fallback → now answer:api-key");
  expect(answerShown({ answer: "followup:fallback:a,b", answered_now: "answers:a,b" })).toBe("followup:fallback → now answers:a,b");
  // What it got, a list beside "now": its first and how many more, so that the column shows what it gets now (it had been cut away).
  expect(answerShown({ answer: "answers:latecomers,box-office,gallery", answered_now: "answer:exchanges" })).toBe("answers:latecomers+2 → now answer:exchanges");
  // What it gets now whole: shortened too, a list changed past its first read as unchanged (a review).
  expect(answerShown({ answer: "answers:checkin,cancel,idcard", answered_now: "answers:checkin,luggage,idcard" })).toBe("answers:checkin+2 → now answers:checkin,luggage,idcard");
  // Without "now", the answer as logged.
  expect(answerShown({ answer: "answers:a,b,c" })).toBe("answers:a,b,c");
  expect(answerShown({ answer: "fallback:api-key" })).toBe("fallback:api-key");
  // What the follower picked from a list: beside its first and how many more; "now" says more once taught.
  expect(answerShown({ answer: "answers:a,b,c", picked: { seq: 9, article: "b" } })).toBe("answers:a+2 → picked b");
  expect(answerShown({ answer: "followup:answers:a,b", picked: { seq: 9, article: "b" } })).toBe("followup:answers:a+1 → picked b");
  expect(answerShown({ answer: "answers:a,b,c", answered_now: "answer:b", picked: { seq: 9, article: "b" } })).toBe("answers:a+2 → now answer:b");
});

test("inbox shows each message's SEQ and says how to teach it; teach adds it, and the follower asking it again gets the article", async () => {
  await cli("add", "id=delivery", "title=Delivery times", "url=https://shop.example/delivery", "body=Orders ship within 2 days.");
  expect(await say("where is my parcel")).not.toContain("Delivery times");
  let inbox = await cli("inbox");
  for (let i = 0; i < 50 && !inbox.out.includes("where is my parcel"); i++) {
    await Bun.sleep(20);
    inbox = await cli("inbox");
  }
  expect(inbox.out.split("\n")[0]).toMatch(/^\s*SEQ  RECEIVED\s+FROM\s+ANSWER\s+REPLY\s+TEXT$/);
  expect(inbox.out).toContain("replyd teach <seq> <article>");
  // No AppSecret on this server: no window is offered as open, and the footer says why none can be answered.
  expect(inbox.out).not.toMatch(/open \d+ until/);
  expect(inbox.out).toContain("no follower can be answered from here: the server has no AppSecret (serve --wx-secret)");
  const seq = (inbox.out.split("\n").find((l) => l.endsWith("where is my parcel")) as string).trim().split(/\s+/)[0] as string;
  const r = await cli("teach", seq, "delivery");
  expect(r).toMatchObject({ code: 0 });
  // Named by its title too: an id like "9" reads as a code.
  expect(r.out).toContain(`taught delivery "Delivery times" (now rev 2, 1 question): "where is my parcel"`);
  expect(await say("where is my parcel?")).toContain("Delivery times");
  // Listed still, with what it gets now.
  expect((await cli("inbox")).out.split("\n").find((l) => l.endsWith("where is my parcel"))).toMatch(/ fallback → now answer:delivery /);
  const again = await cli("teach", seq, "delivery");
  expect(again.code).toBe(1);
  expect(again.err).toContain("already_taught");
  expect((await cli("teach", "x1", "delivery")).code).toBe(2);
  // 0 is no SEQ (they start at 1), said on the laptop; one past the log names the inbox.
  const zero = await cli("teach", "0", "delivery");
  expect([zero.code, zero.err]).toEqual([2, expect.stringContaining('("0" is no SEQ)')]);
  expect((await cli("teach", "99999", "delivery")).err).toContain("replyd inbox lists those there are");
});

test("inbox names the question a \"不是这个\" asked another answer to, and teach of it teaches that question, saying so", async () => {
  expect(await say("when do orders ship")).toContain("Delivery times");
  expect(await say("不是这个")).not.toContain("Delivery times");
  let inbox = await cli("inbox");
  for (let i = 0; i < 50 && !inbox.out.includes("不是这个"); i++) {
    await Bun.sleep(20);
    inbox = await cli("inbox");
  }
  const line = inbox.out.split("\n").find((l) => l.includes("不是这个")) as string;
  const asked = JSON.parse((await cli("inbox", "--all", "--json")).out).items.find((m: { content: string }) => m.content === "when do orders ship").seq;
  expect(line).toMatch(new RegExp(`不是这个 \\(another answer to ${asked}\\)$`));
  const seq = line.trim().split(/\s+/)[0] as string;
  const r = await cli("teach", seq, "returns");
  expect(r).toMatchObject({ code: 0 });
  expect(r.out).toContain(`taught returns "Returns and refunds" (now rev 6, 3 questions): "when do orders ship"`);
  expect(r.out).toContain(`the question of message ${asked}, which message ${seq} asked another answer to`);
});

test("teach --as beside a message whose few words lean on the question before: what they get said, and no teach of them offered (it would be refused)", async () => {
  await say("is it free?");
  let inbox = await cli("inbox", "--all", "--json");
  const seqOf = (items: { seq: number; content: string }[]) => items.find((m) => m.content === "is it free?")?.seq;
  for (let i = 0; i < 50 && seqOf(JSON.parse(inbox.out).items) === undefined; i++) {
    await Bun.sleep(20);
    inbox = await cli("inbox", "--all", "--json");
  }
  const seq = String(seqOf(JSON.parse(inbox.out).items));
  const r = await cli("teach", seq, "delivery", "--as", "what does delivery cost");
  expect(r).toMatchObject({ code: 0 });
  expect(r.out).toMatch(new RegExp(`message ${seq}'s own words still get [^\\n]*: teach refuses them as they are — they name what they ask of only with what was said before them \\(a follow-up's few words, or a pronoun\\); the conversation answers them after a question that names it`));
  expect(r.out).not.toContain(`replyd teach ${seq} delivery`);
  expect((await cli("teach", seq, "delivery")).err).toContain("leans_on_before");
});

test("synonyms: imported from a document (its report says what merged), listed, kept by backups of synonyms", async () => {
  expect((await cli("synonyms")).out).toContain("no synonyms");
  writeFileSync(join(s.dir, "syn.json"), JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms: [["Visa", "credit card"], ["人工", "客服"]] }));
  const imported = await cli("import", "syn.json");
  expect(imported).toMatchObject({ code: 0 });
  expect(imported.out).toContain("synonym groups: 2 added, 0 updated, 0 unchanged of 2 (the passage index is rebuilt with them: replyd health)");
  expect((await cli("synonyms")).out).toBe("   0  Visa = credit card\n   1  人工 = 客服\n\n2 groups");
  const backup = await cli("backup", "synonyms", "-o", "s.json");
  expect(backup.out).toContain("2 synonym groups");
  expect((await cli("health")).out).toContain("synonyms       2 groups");
  // A file with an older group, imported again, takes a phrase added since out of it: named.
  writeFileSync(join(s.dir, "older.json"), JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms: [["人工", "真人"]] }));
  expect((await cli("import", "older.json")).out).toContain("synonym phrases the file's groups leave out, in no group now: 客服");
});

test("an import that brings a deleted article back says so, and how to keep it deleted; one that deletes a live article says so", async () => {
  const articles = [{ id: "hours", title: "Opening hours", url: "https://e.com/h", body: "9 to 6." }];
  writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles }, null, 2));
  expect((await cli("import", "cms.json")).code).toBe(0);
  expect((await cli("rm", "hours")).code).toBe(0);
  const again = await cli("import", "cms.json");
  expect(again.out).toContain("0 added, 1 updated (hours: deleted), 0 unchanged of 1");
  expect(again.out).toContain('1 of the updated (hours) was deleted and is live again (its record says nothing of "deleted"');
  expect((await cli("import", "cms.json")).out).not.toContain("live again");
  // A record that deletes a live article says so too.
  writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: [{ ...(articles[0] as object), deleted: true }] }, null, 2));
  expect((await cli("import", "cms.json")).out).toContain('1 of the updated (hours) is deleted now (its record says "deleted": followers no longer get it;');
});

test("an import names each updated article with the fields the file changed: a body edited on the server and written over says so", async () => {
  // A pet hospital's walkthrough: "1 updated (parking)" had been all the import said of a body fixed with set.
  const articles = [{ id: "parking", title: "Parking", url: "https://e.com/p", body: "No parking at the door." }, { id: "fees", title: "Fees", url: "https://e.com/f", body: "Exams 40." }];
  writeFileSync(join(s.dir, "cms2.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles }, null, 2));
  expect((await cli("import", "cms2.json")).code).toBe(0);
  expect((await cli("set", "parking", "body=Parking behind the clinic, free.", "title=Parking and access")).code).toBe(0);
  const again = await cli("import", "cms2.json");
  expect(again.out).toContain("0 added, 1 updated (parking: title, body), 1 unchanged of 2");
});

test("an import whose records list keywords without those added on the server says which articles lost them, and what each lost", async () => {
  const articles = ["a", "b", "c", "d", "e", "f", "g"].map((id) => ({ id, title: `Article ${id}`, url: `https://e.com/${id}`, keywords: ["cms"], body: "Text." }));
  writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles }, null, 2));
  expect((await cli("import", "cms.json")).code).toBe(0);
  expect((await cli("set", "a", "keywords+=refund")).code).toBe(0);
  const one = await cli("import", "cms.json");
  expect(one.out).toContain('1 of the updated lost keywords it held (a: "refund"): its record lists others — if they were added on the server (keywords+=), put them in the file too, or leave "keywords" out of its records: a record without it keeps the article\'s');
  for (const a of articles) expect((await cli("set", a.id, "keywords+=refund")).code).toBe(0);
  // Each of the seven named (up to DROPPED_NAMED: five, then "and 2 more", had hidden the sixth's: an airport's walkthrough).
  expect((await cli("import", "cms.json")).out).toContain('7 of the updated lost keywords they held (a: "refund"; b: "refund"; c: "refund"; d: "refund"; e: "refund"; f: "refund"; g: "refund"): their records list others');
  // Of one that lost five, the five; of one that lost more, the first five and how many more.
  for (const k of ["k1", "k2", "k3", "k4", "k5"]) expect((await cli("set", "a", `keywords+=${k}`)).code).toBe(0);
  expect((await cli("import", "cms.json")).out).toContain('1 of the updated lost keywords it held (a: "k1", "k2", "k3", "k4", "k5"): ');
  for (const k of ["k1", "k2", "k3", "k4", "k5", "k6", "k7"]) expect((await cli("set", "a", `keywords+=${k}`)).code).toBe(0);
  expect((await cli("import", "cms.json")).out).toContain('1 of the updated lost keywords it held (a: "k1", "k2", "k3", "k4", "k5" and 2 more): ');
  expect((await cli("import", "cms.json")).out).not.toContain("lost keywords");
});

test("an import keeps questions taught on the server after the file's and names them; --replace-questions drops them, named; past fifty the file's come first", async () => {
  const articles = ["a", "b", "c"].map((id) => ({ id, title: `Article ${id}`, url: `https://e.com/${id}`, questions: ["how much"], body: "Text." }));
  const write = (qs: string[]) => writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: articles.map((a) => ({ ...a, questions: qs })) }, null, 2));
  write(["how much"]);
  expect((await cli("import", "cms.json")).code).toBe(0);
  expect((await cli("set", "b", "questions+=can I get my money back")).code).toBe(0);
  // Held in another case and end punctuation: the file's spelling, nothing kept or lost.
  expect((await cli("set", "c", "questions=How much??")).code).toBe(0);
  const same = await cli("import", "cms.json");
  expect(same.out).toContain("0 added, 1 updated (c: questions), 2 unchanged of 3");
  // b unchanged, and said: its record does not list what it keeps (a question taken out of the file would stay).
  expect(same.out).toContain('warning: 1 article kept questions its record does not list (b: "can I get my money back"), after the file\'s: taught on the server (replyd teach, questions+=), or taken out of the file since? to keep them, put them in the file; to drop them, replyd set ID "questions-=…", or import with --replace-questions (replyd 0.2.26 on)');
  expect((await cli("show", "b", "--json")).out).toContain("can I get my money back");
  // The CMS's file gains a question: b keeps the taught one after it, and the report says so.
  write(["how much", "what does it cost"]);
  const kept = await cli("import", "cms.json");
  // Said by the server among its warnings, so that a client before 0.2.26 says it too.
  expect(kept.out).toContain('warning: 1 article kept questions its record does not list (b: "can I get my money back"), after the file\'s: taught on the server (replyd teach, questions+=), or taken out of the file since? to keep them, put them in the file; to drop them, replyd set ID "questions-=…", or import with --replace-questions (replyd 0.2.26 on)');
  expect(kept.out).not.toContain("lost questions");
  expect(JSON.parse((await cli("show", "b", "--json")).out).questions).toEqual(["how much", "what does it cost", "can I get my money back"]);
  // The file as the list, asked for.
  const replaced = await cli("import", "cms.json", "--replace-questions");
  expect(replaced.out).not.toContain("kept questions");
  expect(replaced.out).toContain('1 of the updated lost questions it held (b: "can I get my money back"): its record lists others — if they were added on the server (replyd teach or questions+=), put them in the file too, or leave "questions" out of its records: a record without it keeps the article\'s; an import without --replace-questions keeps them after the file\'s');
  expect(JSON.parse((await cli("show", "b", "--json")).out).questions).toEqual(["how much", "what does it cost"]);
  // Fifty in the file and one taught: the file's fifty kept, the taught one named as lost.
  const fifty = Array.from({ length: 50 }, (_, i) => `question number ${i + 1}`);
  write(fifty.slice(0, 49));
  expect((await cli("import", "cms.json", "--replace-questions")).code).toBe(0);
  expect((await cli("set", "a", "questions+=a taught one")).code).toBe(0);
  write(fifty);
  const full = await cli("import", "cms.json");
  expect(full.out).toContain('1 of the updated lost questions past the 50 an article may hold (a: "a taught one"): the file\'s come first');
  expect(JSON.parse((await cli("show", "a", "--json")).out).questions).toEqual(fifty);
});

test("an import whose records give no tag or description where the articles had one says which articles lost them", async () => {
  const articles = ["a", "b", "c"].map((id) => ({ id, title: `Article ${id}`, url: `https://e.com/${id}`, tag: "jy", body: "Text." }));
  writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles }, null, 2));
  expect((await cli("import", "cms.json")).code).toBe(0);
  expect((await cli("set", "c", "description=Prices per night")).code).toBe(0);
  // The price sheet has no tag column.
  writeFileSync(join(s.dir, "cms.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: articles.map(({ tag: _tag, ...a }) => a) }, null, 2));
  const out = (await cli("import", "cms.json")).out;
  expect(out).toContain("3 of the updated lost their tag (a, b, c): their records give none, and the tag's list no longer shows them");
  expect(out).toContain("1 of the updated lost its description (c): its record gives none");
  expect((await cli("import", "cms.json")).out).not.toContain("lost");
});

test("an import replacing a body set on the server says so on a line of its own, however many articles it updates", async () => {
  // Two walkthroughs: "7 updated (…; member: keywords and 2 more)" had hidden the invoice's body, set on the server, written over.
  const articles = ["a", "b", "c", "d", "e", "f"].map((id) => ({ id, title: `Article ${id}`, url: `https://e.com/${id}`, body: "Text." }));
  writeFileSync(join(s.dir, "sheet.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles }, null, 2));
  expect((await cli("import", "sheet.json")).code).toBe(0);
  expect((await cli("set", "f", "body=How to get an invoice, rewritten on the server.")).code).toBe(0);
  writeFileSync(join(s.dir, "sheet.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: articles.map((a) => ({ ...a, keywords: ["k"] })) }, null, 2));
  const out = (await cli("import", "sheet.json")).out;
  expect(out).toContain("and 1 more");
  expect(out).toContain("1 of the updated had its body replaced by what the file gives (f; a record without a body empties it): an edit made on the server since the file was written (replyd set ID body=…) is written over — put it in the file to keep it");
  expect((await cli("import", "sheet.json")).out).not.toContain("body replaced");
});

test("set questions+= says which recent questions sent another article alone now get a list with it behind that article", async () => {
  await cli("add", "id=wire", "title=Paying by wire", "url=https://shop.example/wire", "body=We accept wire transfers from any bank; quote the order number.");
  await cli("add", "id=chargeback", "title=Chargebacks", "url=https://shop.example/chargeback", "body=A chargeback disputes a card payment with your card issuer.");
  const before = await say("can i pay by wire transfer");
  expect(before).toContain("<Title><![CDATA[Paying by wire]]></Title>");
  expect(before).not.toContain("Chargebacks");
  const r = await cli("set", "chargeback", "questions+=chargeback of a wire transfer?");
  expect(r.out).toMatch(/^revised chargeback: now rev 2\nit is now listed behind the article 1 question followers asked lately had alone \(they get a list now\):\n +\d+  "can i pay by wire transfer" \(first: wire\)$/);
  const after = await say("can i pay by wire transfer");
  expect(after.indexOf("Paying by wire")).toBeGreaterThan(-1);
  expect(after.indexOf("Chargebacks")).toBeGreaterThan(after.indexOf("Paying by wire"));
});

test("inbox --lists shows the questions the ranking answered with a list, says what that means, and with --all or --ai is a usage error", async () => {
  await cli("add", "id=kayak-hire", "title=Kayak hire", "url=https://shop.example/kayak", "body=Hire a kayak from 15 a day. A kayak deposit of 100 is held on your card.");
  await cli("add", "id=kayak-cancel", "title=Cancelling a kayak booking", "url=https://shop.example/kayak-cancel", "body=Cancel a kayak booking up to a day ahead and the kayak deposit is refunded.");
  expect(await say("kayak deposit")).toContain("Kayak hire");
  let lists = await cli("inbox", "--lists");
  for (let i = 0; i < 50 && !lists.out.includes("kayak deposit"); i++) {
    await Bun.sleep(20);
    lists = await cli("inbox", "--lists");
  }
  const line = lists.out.split("\n").find((l) => l.endsWith("kayak deposit")) as string;
  expect(line).toMatch(/ answers:kayak-(hire|cancel),kayak-(cancel|hire) /);
  expect(lists.out).toContain("the ranking was unsure of these: each got the articles listed (answers:FIRST,…), the first one leading; teach one to the article that answers it and it gets that article alone");
  // Not in the plain inbox: something answered it.
  expect((await cli("inbox")).out).not.toContain("kayak deposit");
  for (const other of ["--all", "--ai"]) expect((await cli("inbox", "--lists", other)).code).toBe(2);
  // The follower picks the second: the list's line says so, and what it means.
  const second = (line.match(/ answers:kayak-\w+,(kayak-\w+) /) as RegExpMatchArray)[1] as string;
  expect(await say("2")).toContain(second === "kayak-hire" ? "Kayak hire" : "Cancelling a kayak booking");
  lists = await cli("inbox", "--lists");
  for (let i = 0; i < 50 && !lists.out.includes("picked"); i++) {
    await Bun.sleep(20);
    lists = await cli("inbox", "--lists");
  }
  expect(lists.out.split("\n").find((l) => l.endsWith("kayak deposit"))).toMatch(new RegExp(` answers:kayak-\\w+\\+1 → picked ${second} `));
  expect(lists.out).toContain('"→ picked ID": the follower chose that entry of the list next');
});

test("against a server before 0.2.26: --replace-questions' and --lists' refusals say the server is older, and what to do; before 0.2.29, reply --article is sent as a code; other errors pass as they are", async () => {
  const unknown = new CLIError("unknown_field", "unknown field: questions; expected some of: mode, json");
  const replaced = await olderServer(true, () => Promise.reject(unknown)).catch((e: CLIError) => e);
  expect(replaced.message).toBe("the server is older than replyd 0.2.26, which knows --replace-questions: leave it out — a server before 0.2.26 replaces an article's questions with a record's in any import (the report names what each article lost)");
  // Without the flag the field is not sent: nothing to explain.
  expect(await olderServer(false, () => Promise.reject(unknown)).catch((e: CLIError) => e)).toBe(unknown);
  const other = new CLIError("invalid_document", "the document is invalid");
  expect(await olderServer(true, () => Promise.reject(other)).catch((e: CLIError) => e)).toBe(other);
  const inbox = olderInbox(new CLIError("bad_request", '"inbox" must be unmatched, all or ai')) as CLIError;
  expect(inbox.message).toContain("the server is older than replyd 0.2.26, which lists the questions answered with a list (inbox --lists)");
  expect(olderInbox(other)).toBe(other);
  // reply --article against a server before 0.2.29: the same words sent as the code it knows (a review).
  const fields: string[] = [];
  const sent = await byOlderServer((field) => (fields.push(field), field === "article" ? Promise.reject(new CLIError("unknown_field", "unknown field: article; expected some of: openid, inbox, text, code")) : Promise.resolve("sent")));
  expect([sent, fields]).toEqual(["sent", ["article", "code"]]);
  expect(await byOlderServer(() => Promise.reject(other)).catch((e: CLIError) => e)).toBe(other);
  const asked = olderAsk(new CLIError("unknown_field", "unknown field: before; expected some of: q, generate, after")) as CLIError;
  expect(asked.message).toContain("the server is older than replyd 0.2.26, which reads two messages before the question");
  expect(olderAsk(other)).toBe(other);
});

test("teach of a message over 200 characters says so (not that the article is invalid); --as of it suggests no whole-message teach; a long message taught whole is noted as lending its story", async () => {
  await cli("add", "id=refunds", "title=Exchanges and refunds", "url=https://shop.example/refunds", "body=Tickets can be exchanged up to 48 hours before the show for a fee of 2 per ticket.");
  const long = "Good morning. I bought two tickets last Tuesday at the box office counter for my parents' anniversary, paid with my debit card, the lady was very helpful and said everything would arrive by email within the hour, but nothing has come through yet, I have checked my spam folder twice and asked my husband to look too, what should I do now please";
  expect([...long].length).toBeGreaterThan(200);
  await say(long);
  let inbox = await cli("inbox", "--all");
  for (let i = 0; i < 50 && !inbox.out.includes("Good morning. I bought"); i++) {
    await Bun.sleep(20);
    inbox = await cli("inbox", "--all");
  }
  const seq = JSON.parse((await cli("inbox", "--all", "--json")).out).items.find((m: { content: string }) => m.content === long).seq as number;
  const whole = await cli("teach", String(seq), "refunds");
  expect(whole.code).toBe(1);
  expect(whole.err).toMatch(new RegExp(`^replyd: message ${seq} is longer than a question may be; nothing was taught \\(1 problem\\) \\[invalid_article\\]\n  questions: message ${seq} is \\d{3} characters and a question at most 200: give a shorter phrasing of it with replyd teach ${seq} refunds --as "…"`));
  expect(whole.err).not.toContain("the article is invalid");
  const as = await cli("teach", String(seq), "refunds", "--as", "not received the email with my tickets");
  expect(as.code).toBe(0);
  expect(as.out).toContain("the message is longer than a question may be (200 characters): to answer more of its words with this article, teach another short phrasing of them (--as \"…\")");
  expect(as.out).not.toContain(`to answer them with this article too: replyd teach ${seq} refunds`);
  expect(as.out).not.toContain("taught whole, a long message");
  // A story under 200 characters taught whole: noted.
  const story = "can i get a refund i booked the wrong night for my wife's birthday, we cant do saturday 12th now";
  await say(story);
  const seq2 = await seqOf(story);
  const taught = await cli("teach", String(seq2), "refunds");
  expect(taught.code).toBe(0);
  expect(taught.out).toContain("note: taught whole, a long message lends all its words to this article");
});

test("add says which recent questions the new article now comes first for, as set questions+= and teach do", async () => {
  await say("do you sell gift hampers for christmas");
  let r = await cli("inbox");
  for (let i = 0; i < 50 && !r.out.includes("gift hampers"); i++) {
    await Bun.sleep(20);
    r = await cli("inbox");
  }
  const added = await cli("add", "id=hampers", "title=Christmas gift hampers", "url=https://shop.example/hampers", "body=Our Christmas gift hampers start at 30 and ship from 1 December.");
  expect(added.code).toBe(0);
  expect(added.out).toMatch(/it now comes first for \d+ questions? followers asked lately, which it did not before:/);
  expect(added.out).toMatch(/^ +\d+ {2}"do you sell gift hampers for christmas" \(before: the fallback; now (alone|first of a list)\)$/m);
});

test("after --as, a message whose question is within 200 characters once its greeting is left out is suggested whole, as teach takes it", async () => {
  const q = "I bought two tickets last Tuesday at the box office counter for my parents anniversary, paid with my debit card, and nothing has come through by email yet, I have checked my spam folder twice what now";
  const msg = `Good morning, ${q}`;
  expect([...msg].length).toBeGreaterThan(200);
  expect([...q].length).toBeLessThanOrEqual(200);
  await say(msg);
  const seq = await seqOf(msg);
  const as = await cli("teach", String(seq), "refunds", "--as", "tickets never arrived by email");
  expect(as.code).toBe(0);
  expect(as.out).not.toContain("longer than a question may be");
  expect(as.out).toContain(`to answer them with this article too: replyd teach ${seq} refunds`);
  expect((await cli("teach", String(seq), "refunds")).code).toBe(0);
});

test("a server before 0.2.27 refusing a message too long to teach as 'the article is invalid' is said as what it is; a later server's own headline is printed as it is", () => {
  const old = tooLongSaid(new CLIError("invalid_article", "the article is invalid; nothing was written (1 problem)", 1, ['  questions: message 12 is 330 characters and a question at most 200: give a shorter phrasing of it with replyd teach 12 refunds --as "…"']));
  expect(old).toMatchObject({ message: 'message 12 is 330 characters and a question at most 200: give a shorter phrasing of it with replyd teach 12 refunds --as "…"', detailLines: [] });
  const later = new CLIError("invalid_article", "message 12 is longer than a question may be; nothing was taught (1 problem)", 1, ['  questions: message 12 is 330 characters and a question at most 200: give a shorter phrasing of it with replyd teach 12 refunds --as "…"']);
  expect(tooLongSaid(later)).toBe(later);
});

test("teach --as says when the message's own words get a list this article leads, not it alone", async () => {
  await cli("add", "id=plans", "title=Plans and prices", "url=https://shop.example/plans", "body=Starter costs 9 a month, Pro 19 a month and Business 35 a month.");
  await cli("add", "id=seats", "title=Adding users", "url=https://shop.example/seats", "body=Each extra user costs 5 a month on any plan.");
  const msg = "what do the plans cost a month";
  await say(msg);
  const seq = await seqOf(msg);
  const asked = JSON.parse((await cli("ask", msg, "--json")).out);
  expect(asked.choice).toBe("list");
  expect(asked.articles[0].id).toBe("plans");
  const as = await cli("teach", String(seq), "plans", "--as", "how much is each plan");
  expect(as.code).toBe(0);
  expect(as.out).toMatch(new RegExp(`message ${seq}'s own words get a list this article leads \\(plans, [a-z, ]+\\); to send them this article alone: replyd teach ${seq} plans`));
});

test("teach notes the other articles' keywords the taught question writes out, with the way to teach without them", async () => {
  await cli("add", "id=office", "title=Microsoft Office 365 free for students", "url=https://it.example/office", "keywords=office", "body=Students get Office 365 free on up to five computers.");
  await cli("add", "id=matlab", "title=MATLAB for students", "url=https://it.example/matlab", "keywords=matlab", "body=Download MATLAB from the software portal.");
  const msg = "can i get matlab and office on my mac";
  await say(msg);
  const seq = await seqOf(msg);
  const r = await cli("teach", String(seq), "office");
  expect(r.code).toBe(0);
  expect(r.out).toContain('note: it names what other articles are about — "matlab" (matlab): followers asking of that may now get this article; a phrasing without it (replyd set office questions-=… and --as "…") pulls only questions about this one');
});

test("teach of a few words leaning on the follower's question before them is refused as leaning on it; a short question of its own right after it is taught, nothing said of it", async () => {
  await cli("add", "id=neuter-cat", "title=猫咪绝育手术", "url=https://pets.example/cat", "body=母猫绝育880元，公猫绝育480元，术后当天可以回家。");
  await cli("add", "id=inpatient", "title=住院和探视", "url=https://pets.example/stay", "body=住院的宠物每天可以探视两次，上午十点和下午四点。");
  await say("母猫绝育多少钱啊");
  await say("要住院吗");
  const leaning = await seqOf("要住院吗");
  const refused = await cli("teach", String(leaning), "neuter-cat");
  expect(refused.code).toBe(1);
  // Read with that question or alone (the server's articles of other tests decide), refused as leaning on it.
  expect(refused.err).toMatch(/(?:was read with the question before it|leans on the follower's question just before it \(message \d+, "母猫绝育多少钱啊"\)).*\[leans_on_before\]/);
  expect(refused.err).toContain(`replyd teach ${leaning} neuter-cat --as "…"`);
  // A few words naming their subject (read alone) stand on their own: taught, with no note of the question before (a grocery's walkthrough: the note on most teaches was read past).
  await say("住院探视几点");
  const r = await cli("teach", String(await seqOf("住院探视几点")), "inpatient");
  expect(r.err).toBe("");
  expect(r.out).not.toContain("note: the follower sent it right after");
});

test("an import whose tags give one null says the description removed, and which it named had none", async () => {
  writeFileSync(join(s.dir, "tags1.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: [{ id: "talk1", title: "A talk", url: "https://e.com/t", tag: "talks" }], tags: { talks: "Talks", oldtag: "Old name" } }));
  expect((await cli("import", "tags1.json")).code).toBe(0);
  writeFileSync(join(s.dir, "tags2.json"), JSON.stringify({ format: "replyd/1", matter: "articles", articles: [], tags: { oldtag: null, nosuch: null } }));
  const r = await cli("import", "tags2.json");
  expect(r.code).toBe(0);
  expect(r.out).toContain("1 tag description removed (oldtag); nosuch had none");
  expect(r.err).not.toContain('tag "oldtag"');
});

test("inbox lists a message a person should read beside what answered it, saying why: (for a person: charged twice)", async () => {
  await cli("add", "id=dbl", "title=Refunds for double payments", "url=https://e.com/dbl", "body=If you paid twice for the same booking, the second payment is refunded within 5 working days.");
  await say("i paid twice for my booking!! refund please");
  const out = (await cli("inbox")).out;
  expect(out).toContain("(for a person: charged twice) i paid twice for my booking!! refund please");
});

test("inbox says why a person should read a message nothing answered too, each cue's words spaced: (for a person: asks for a person)", async () => {
  await say("zzzz i need to talk to a real person");
  await say("zzzz qqqq");
  const out = (await cli("inbox")).out;
  expect(out).toContain("(for a person: asks for a person) zzzz i need to talk to a real person");
  // One with no cue is listed as it is.
  expect(out).toMatch(/ {2}zzzz qqqq/);
  expect(out).not.toContain("(for a person: asks for a person) zzzz qqqq");
});
