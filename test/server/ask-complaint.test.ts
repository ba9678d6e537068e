/**
 * What the ranking reads in place of the follower's words, through the server: a complaint of
 * someone's manner — the callback sends the complaints article, and `replyd ask` says what was
 * ranked in the question's place (src/ranking/complaint.ts) — and a compound read as two words
 * (src/ranking/compounds.ts), which `replyd ask` names as split, not as held by no article.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { doc, READER, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());

const PHARMACY = [
  { id: "complaints", title: "Contact us and make a complaint", url: "https://example.com/complaints", keywords: ["contact", "complaint"], body: "Tell us about any problem with our service or staff; a manager replies within two working days." },
  { id: "hours", title: "Branch locations and hours", url: "https://example.com/hours", keywords: ["hours"], body: "Our Main St branch is open 8am to 9pm. The counter closes at 8.30pm." },
  { id: "transfer", title: "How do I transfer my prescription?", url: "https://example.com/transfer", keywords: ["transfer"], body: "Give us your old pharmacy's name and number and we move your prescription for you, free." },
];
const RANT = "the guy at the counter at the main st store, kevin, was super rude to me yesterday";

beforeEach(async () => {
  expect((await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(PHARMACY, { matter: "articles" }) }] })).status).toBe(200);
});

test("a follower's rant about someone's manner gets the complaints article", async () => {
  const at = Math.floor(t.clock.now() / 1000);
  const reply = parseXml(await (await t.handle(wxPost(textMsg(RANT, at), at))).text()) as XmlNode;
  expect(JSON.stringify(reply.Articles)).toContain("Contact us and make a complaint");
});

test("replyd ask says the rant was ranked on the complaints word alone, and names none of its words as not held", async () => {
  const r = (await t.call("GET", "/api/cli/ask", [["q", RANT]], { key: READER })).data as { answer: string; ranked_as?: string; unheld?: string[]; terms: { term: string }[] };
  expect(r).toMatchObject({ answer: "answer:complaints", ranked_as: "complaint" });
  expect(r.unheld).toBeUndefined();
  expect(r.terms.map((x) => x.term)).toEqual(["complain"]);
  // A question ranked on its own words says nothing of the kind, and names what no article holds.
  const own = (await t.call("GET", "/api/cli/ask", [["q", "can i transfer my prescription from kevin"]], { key: READER })).data as { ranked_as?: string; unheld?: string[] };
  expect(own.ranked_as).toBeUndefined();
  expect(own.unheld).toContain("kevin");
});

test("replyd ask names a compound read as two words as split, not among the words no article holds", async () => {
  const r = (await t.call("GET", "/api/cli/ask", [["q", "does the prescriptionfree counter close at 9pm"]], { key: READER })).data as { split?: string[]; unheld?: string[]; terms: { term: string }[] };
  expect(r.split).toEqual(["prescriptionfree"]);
  expect(r.terms.map((x) => x.term)).toContain("prescript");
  expect(r.unheld ?? []).not.toContain("prescriptionfre");
  const whole = (await t.call("GET", "/api/cli/ask", [["q", "does the counter close at 9pm"]], { key: READER })).data as { split?: string[] };
  expect(whole.split).toBeUndefined();
});
