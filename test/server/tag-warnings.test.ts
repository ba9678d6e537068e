/**
 * Tags followers can never have listed — a help word, or the code of a live article, both answered
 * before tags — are left out of the help text and named to the operator: in the answer of the
 * import or restore that made them, and in health.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { article, doc, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());

const call: (typeof t)["call"] = (...a) => t.call(...a);
async function say(content: string): Promise<XmlNode> {
  t.clock.advance(1000);
  const now = Math.floor(t.clock.now() / 1000);
  return parseXml(await (await t.handle(wxPost(textMsg(content, now), now))).text());
}

const ARTICLES = [
  article(1, { code: "faq1", tag: "help", title: "Getting started" }),
  article(2, { code: "news", tag: "tips", title: "This week's news" }),
  article(3, { code: "tip2", tag: "news", title: "A tip" }),
  article(4, { code: "tip3", tag: "tips", title: "Another tip" }),
];

test("a tag named as a help word or as an article's code: the import warns, health lists it, the help text leaves it out", async () => {
  const imported = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(ARTICLES) }] });
  expect(imported.status).toBe(200);
  expect(imported.data.warnings).toEqual([
    'tag "help" is never listed to followers: sending "help" gets the help text; give the tag another name',
    'tag "news" is never listed to followers: "news" is the code of article "a2", which they get instead; give the tag or the code another name',
    // Brought by an import with no description: followers' help lists them by the tag itself (three walkthroughs).
    'tags "help", "news", "tips" have no description: followers\' help lists them by the tag itself — describe them in a document\'s "tags" ({"format": "replyd/1", "matter": "articles", "articles": [], "tags": {"help": "…"}}, imported: a CSV cannot)',
  ]);
  expect((await call("GET", "/api/cli")).data.tag_warnings).toHaveLength(2);
  const help = (await say("h")).Content as string;
  expect(help).toContain("tips — tips (2)");
  expect(help).not.toMatch(/^(help|news) — /m);
  // What a follower sending them gets: the help text, the article.
  expect((await say("news")).MsgType).toBe("news");
  // Control: the code renamed, the tag is reachable, listed and warned of no more.
  // news and tips described now: help alone is said to lack a description.
  const renamed = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc([{ ...ARTICLES[1], code: "weekly" }], { tags: { news: "News", tips: "Tips" } }) }] });
  expect(renamed.data.warnings).toEqual([
    'tag "help" is never listed to followers: sending "help" gets the help text; give the tag another name',
    'tag "help" has no description: followers\' help lists it by the tag itself — describe it in a document\'s "tags" ({"format": "replyd/1", "matter": "articles", "articles": [], "tags": {"help": "…"}}, imported: a CSV cannot)',
  ]);
  expect((await say("h")).Content as string).toContain("news — News (1)");
  expect((await say("news")).Content as string).toContain("tip2");
  // Described, a tag named as a help word is listed by its description alone: said so.
  const described = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc([ARTICLES[0]], { tags: { help: "新手入门" } }) }] });
  expect(described.data.warnings).toEqual(['tag "help" is listed to followers only by its description "新手入门" (help leaves it out): sending "help" gets the help text; give the tag another name']);
  expect((await say("新手入门")).Content as string).toStartWith("新手入门:\n");
});

test("a tag renamed in the file: the old tag's description, which no article carries now, is named on import and in health, with the document that drops it; gone after --init", async () => {
  const tips = [article(1, { tag: "event", title: "Readings" }), article(2, { tag: "event", title: "Signings" })];
  const first = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(tips, { tags: { event: "Readings and signings" } }) }] });
  expect(first.data.warnings).toEqual([]);
  const renamed = tips.map((a) => ({ ...a, tag: "talks" }));
  const again = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(renamed, { tags: { talks: "Readings and signings" } }) }] });
  const stale = 'tag "event" has a description but no live article carries it (renamed?): a merge import (not --init) whose "tags" give it null drops it ("tags": {"event": null} in your file\'s tags)';
  expect(again.data.warnings).toEqual([stale]);
  expect((await call("GET", "/api/cli")).data.tag_warnings).toEqual([stale]);
  const init = await call("POST", "/api/cli", [["mode", "init"]], { files: [{ name: "json", content: doc(renamed, { tags: { talks: "Readings and signings" } }) }] });
  expect(init.status).toBe(200);
  expect((await call("GET", "/api/cli")).data.tag_warnings).toEqual([]);
});

test("a merge whose tags give a tag null removes its description: named in the answer, the warning gone; a null for a tag without one removes nothing; --init ignores it", async () => {
  // Two walkthroughs' operators could drop a renamed tag's description only by editing a backup and restoring it.
  const tips = [article(1, { tag: "talks", title: "Readings" })];
  await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(tips, { tags: { event: "Readings and signings", talks: "Talks" } }) }] });
  expect((await call("GET", "/api/cli")).data.tag_warnings).toHaveLength(1);
  // A document of no articles and a null (a merge: with --init it would remove every article).
  const dropped = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "articles", articles: [], tags: { event: null, never: null } }) }] });
  expect(dropped.status).toBe(200);
  expect(dropped.data).toMatchObject({ tags: 0, tags_removed: ["event"], warnings: [] });
  expect((await call("GET", "/api/cli")).data.tag_warnings).toEqual([]);
  expect(t.store.content.tags()).toEqual({ talks: "Talks" });
  // With --init the tags are replaced whole: a null names nothing to keep.
  const init = await call("POST", "/api/cli", [["mode", "init"]], { files: [{ name: "json", content: doc(tips, { tags: { talks: null } }) }] });
  expect(init.status).toBe(200);
  expect(init.data.tags_removed).toEqual([]);
  expect(t.store.content.tags()).toEqual({});
  // Anything but a line or null is refused, saying null removes.
  const bad = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(tips, { tags: { talks: 5 } }) }] });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.error)).toContain("null removes the tag's description");
});
