/**
 * dist/replyd taught by its operator (issue 34 D), on a data folder and on PostgreSQL: a follower's
 * question nothing answered, found in `replyd inbox` by its SEQ, taught to an article with
 * `replyd teach`, is then answered with that article through the callback, and so is a close
 * paraphrase; synonyms imported from a document are applied once `replyd health` says the passage
 * index is ready again; `set … +=` appends; backups carry the questions and the synonyms.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, startBinaryServer } from "./binary-server.ts";
import { doc } from "./helpers.ts";
import { textMsg, wxPost } from "./wechat/helpers.ts";

const ADMIN = { appkey: "ops", secret: "ops-secret-0123456789abcdef" };

beforeAll(buildIfMissing);

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const SHOP = [
  { id: "returns", title: "Returns and refunds", url: "https://shop.example/returns", body: "You can return any item within 30 days of delivery. Refunds are paid to the original payment method within 5 working days." },
  { id: "delivery", title: "Delivery times", url: "https://shop.example/delivery", body: "Orders ship within 2 days. Standard delivery takes 3 to 5 working days." },
  { id: "payment", title: "Ways to pay", url: "https://shop.example/payment", body: "We accept credit cards and bank transfers. Invoices are sent by email." },
];

/** A server of the binary on a data folder or a database, its admin key from its environment. */
async function serve(kind: "sqlite" | "postgres") {
  const { dir, url } = await startBinaryServer(kind, { prefix: "replyd-binteach-", admin: ADMIN, cleanups });
  const client = (...args: string[]) => {
    const r = Bun.spawnSync([BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_URL: url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret } });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };
  const say = async (text: string) => {
    const at = Math.floor(Date.now() / 1000);
    const req = wxPost(textMsg(text, at), at);
    return (await fetch(url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: await req.text(), headers: { "content-type": "text/xml" } })).text();
  };
  /** Until health says the passage index is whole. */
  const ready = async () => {
    for (let i = 0; i < 300; i++) {
      if (/^(ready|checking)$/.test(JSON.parse(client("health", "--json").out).passage_index.state)) return;
      await Bun.sleep(50);
    }
    throw new Error("the passage index was not rebuilt");
  };
  return { dir, client, say, ready };
}

describe.each(["sqlite", "postgres"] as const)("%s", (kind) => {
  test("a follower's question taught from the inbox is answered with the article after, and so is a paraphrase; --as teaches a phrasing read as a string; synonyms apply once the index is rebuilt", async () => {
    const s = await serve(kind);
    writeFileSync(join(s.dir, "shop.json"), doc(SHOP, { matter: "articles" }));
    expect(s.client("import", "shop.json").code).toBe(0);
    await s.ready();
    expect(await s.say("I want my money back")).not.toContain("Returns and refunds");

    let inbox = s.client("inbox");
    for (let i = 0; i < 100 && !inbox.out.includes("I want my money back"); i++) {
      await Bun.sleep(20);
      inbox = s.client("inbox");
    }
    expect(inbox.out.split("\n")[0]).toContain("SEQ");
    const seq = (inbox.out.split("\n").find((l) => l.endsWith("I want my money back")) as string).trim().split(/\s+/)[0] as string;
    const taught = s.client("teach", seq, "returns");
    expect(taught).toMatchObject({ code: 0 });
    expect(taught.out).toContain('"I want my money back"');
    expect(await s.say("I want my money back")).toContain("Returns and refunds");
    expect(await s.say("could I have my money back please?")).toContain("Returns and refunds");
    expect(s.client("teach", seq, "returns").err).toContain("already_taught");
    // The CMS's file, now listing a question of its own for the article: the taught one is kept after it, and said.
    writeFileSync(join(s.dir, "shop.json"), doc(SHOP.map((a) => (a.id === "returns" ? { ...a, questions: ["can I send it back"] } : a)), { matter: "articles" }));
    const again = s.client("import", "shop.json");
    expect(again.out).toContain('warning: 1 article kept questions its record does not list (returns: "I want my money back"), after the file\'s');
    expect(JSON.parse(s.client("show", "returns", "--json").out).questions).toEqual(["can I send it back", "I want my money back"]);
    expect(await s.say("I want my money back")).toContain("Returns and refunds");
    // --as: the operator's phrasing of a message, read as a string (cac would make "0123" the number 123):
    // a number alone is no question, refused quoting it as typed; with a word, taught as typed.
    expect(s.client("teach", seq, "delivery", "--as", "0123")).toMatchObject({ code: 1, err: expect.stringContaining('("0123") is what followers say between questions') });
    expect(await s.say("where is my parcel")).not.toContain("Delivery");
    const as = s.client("teach", seq, "delivery", "--as", "0123 parcel");
    expect(as).toMatchObject({ code: 0 });
    expect(as.out).toContain('(now rev 2, 1 question): "0123 parcel"');
    expect(as.out).toContain(`for message ${seq}: "I want my money back"`);
    // The message's own words are the ranking's still (taught to the returns above): said.
    expect(as.out).toContain(`message ${seq}'s own words still get returns; to answer them with this article too: replyd teach ${seq} delivery`);
    // What the teach moved, said: the question nothing answered now gets the delivery article.
    expect(as.out).toContain("it now comes first for 1 other question followers asked lately, which it did not before:");
    expect(as.out).toMatch(/^ +\d+ {2}"where is my parcel" \(before: the fallback; now (alone|first of a list)\)$/m);
    expect(as.out).toContain("take the question back (replyd set delivery questions-='0123 parcel')");

    expect(await s.say("is amex ok?")).not.toContain("Ways to pay");
    writeFileSync(join(s.dir, "syn.json"), JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms: [["Amex", "credit card"]] }));
    expect(s.client("import", "syn.json").out).toContain("synonym groups: 1 added");
    await s.ready();
    expect(await s.say("is amex ok?")).toContain("Ways to pay");
    expect(s.client("synonyms").out).toContain("Amex = credit card");

    expect(s.client("set", "payment", 'questions+=do you take cheques?', "keywords+=pay,cheque").code).toBe(0);
    expect(s.client("show", "payment").out).toContain("questions   do you take cheques?");
    expect(s.client("backup", "all", "-o", "all.json").code).toBe(0);
    const backup = JSON.parse(readFileSync(join(s.dir, "all.json"), "utf8"));
    expect(backup.synonyms).toEqual([["Amex", "credit card"]]);
    expect(backup.articles.find((a: { id: string }) => a.id === "returns").questions).toEqual(["can I send it back", "I want my money back"]);

    // Deleting the article its question was taught to says what becomes of the question, and does it.
    const removed = s.client("rm", "returns");
    expect(removed).toMatchObject({ code: 0 });
    expect(removed.out).toContain("its 2 questions (taught or imported) now get the fallback and wait in the inbox: teach them to another article");
    expect(s.client("ask", "I want my money back").out).toContain('taught to "returns", deleted since');
  });
});
