import { describe, expect, test } from "bun:test";
import { validateArticle } from "../src/article/article.ts";
import { documentDigest } from "../src/doc/digest.ts";
import { DocumentWriter } from "../src/doc/document-writer.ts";
import { requireSections } from "../src/doc/document.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { ReplydError } from "../src/base/errors.ts";
import { article, doc } from "./helpers.ts";
import { CODE } from "../src/base/errors.ts";

function problemsOf(fn: () => unknown): { field: string; reason: string; index?: number; section?: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ReplydError) return (e.details?.problems ?? []) as never;
    throw e;
  }
  throw new Error("expected the document to be refused");
}

describe("article validation", () => {
  const ok = { title: "T", url: "https://example.com/x" };
  test("title and url are required; the rest is optional", () => {
    expect(validateArticle(ok).value).toEqual(ok);
    expect(validateArticle({}).problems.map((p) => p.field).sort()).toEqual(["title", "url"]);
  });
  test.each([
    ["id", "Upper"],
    ["id", "-lead"],
    ["id", "x".repeat(65)],
    ["tag", "Tag"],
    ["tag", "x".repeat(17)],
    ["code", "two words"],
    ["code", "h"],
    ["code", "HELP"],
    ["code", "帮助"],
    ["title", ""],
    ["title", "x".repeat(65)],
    ["description", "x".repeat(513)],
    ["url", "ftp://example.com/"],
    ["url", "/relative"],
    ["url", "javascript:alert(1)"],
    ["picurl", "data:image/png;base64,AAAA"],
  ])("%s = %p is refused", (field, value) => {
    const { problems } = validateArticle({ ...ok, [field]: value });
    expect(problems.map((p) => p.field)).toContain(field);
  });
  test("a tag in Chinese is refused saying where its name goes: the tag's description under a short key", () => {
    const { problems } = validateArticle({ ...ok, tag: "妇产科" });
    expect(problems).toEqual([expect.objectContaining({ field: "tag", reason: expect.stringContaining(`its name "妇产科" goes in the tag's description ("tags": {"t1": "妇产科"})`) })]);
  });
  test("64-character titles count characters, not UTF-16 units", () => {
    expect(validateArticle({ ...ok, title: "🎉".repeat(64) }).value).toBeDefined();
    expect(validateArticle({ ...ok, title: "🎉".repeat(65) }).value).toBeUndefined();
  });
  test("unknown fields and wrong types are reported, all at once", () => {
    const { problems } = validateArticle({ ...ok, titel: "x", keywords: "a,b", deleted: "yes", rev: 0 });
    expect(problems.map((p) => p.field).sort()).toEqual(["deleted", "keywords", "rev", "titel"]);
    // A slip is named with the field meant; a name nothing is near, or past 64 characters, is not.
    expect(problems.find((p) => p.field === "titel")?.reason).toBe("unknown field; did you mean title?");
    const far = validateArticle({ ...ok, zzzzzz: 1, ["keyword".repeat(10)]: 1, keyword: ["a"] }).problems.map((p) => p.reason);
    expect(far).toEqual(["unknown field", "unknown field", "unknown field; did you mean keywords?"]);
    // A spreadsheet's name for a field, which a CSV's column may carry, names the field ("link" had been "unknown field" alone: a walkthrough).
    const sheet = validateArticle({ ...ok, link: "https://x.example", content: "…", 正文: "…", image: "https://x.example/a.png" }).problems.map((p) => [p.field, p.reason]);
    expect(sheet).toEqual([["link", "unknown field; did you mean url?"], ["content", "unknown field; did you mean body?"], ["正文", "unknown field; did you mean body?"], ["image", "unknown field; did you mean picurl?"]]);
    // Traditional characters and full width, as a Taiwanese sheet's names come (a review: 連結 had been told "did you mean id?").
    const taiwan = validateArticle({ ...ok, 連結: "https://x.example", 內容: "…", 標籤: "t1", ｌｉｎｋ: "https://x.example" }).problems.map((p) => p.reason);
    expect(taiwan).toEqual(["unknown field; did you mean url?", "unknown field; did you mean body?", "unknown field; did you mean tag?", "unknown field; did you mean url?"]);
    // A tag name that is no key is told where the name goes, as JSON writes it (a review: a quote had made the example invalid JSON).
    const named = validateArticle({ ...ok, tag: 'App "beta" \\ notes' }).problems[0]?.reason ?? "";
    expect(named).toContain('its name "App \\"beta\\" \\\\ notes" goes in the tag\'s description ("tags": {"t1": "App \\"beta\\" \\\\ notes"})');
    expect(JSON.parse(/\("tags": (\{.*\})\)/.exec(named)?.[1] ?? "null")).toEqual({ t1: 'App "beta" \\ notes' });
    // A help centre's export names its fields so (a bookkeeping app's walkthrough: "html_url: unknown field" with no hint).
    const helpCentre = validateArticle({ ...ok, html_url: "https://x.example", label_names: ["a"], body_html: "<p>x</p>", section: "billing" }).problems.map((p) => [p.field, p.reason]);
    expect(helpCentre).toEqual([["html_url", "unknown field; did you mean url?"], ["label_names", "unknown field; did you mean keywords?"], ["body_html", "unknown field; did you mean body?"], ["section", "unknown field; did you mean tag?"]]);
    // Worked out for the first five unknown fields of the first thousand records only: a document of unknown keys costs little to refuse.
    const slips = { ...ok, titel: 1, titl: 1, urll: 1, bodyy: 1, tagg: 1, codee: 1 };
    expect(validateArticle(slips, { section: "articles", index: 999 }).problems.filter((p) => p.reason.includes("did you mean")).length).toBe(5);
    expect(validateArticle(slips, { section: "articles", index: 1000 }).problems.filter((p) => p.reason.includes("did you mean")).length).toBe(0);
  });
  test("a field of the wrong type is one problem, saying so", () => {
    const { value, problems } = validateArticle({ id: 7, code: 1, tag: [], title: 5, description: {}, url: true, picurl: 0, created_at: 1, updated_at: null });
    expect(value).toBeUndefined();
    expect(problems.map((p) => `${p.field}: ${p.reason}`)).toEqual([
      "id: must be a string",
      "code: must be a string",
      "tag: must be a string",
      "title: must be a string",
      "description: must be a string",
      "url: must be a string",
      "picurl: must be a string",
      "created_at: must be a string",
      "updated_at: must be an ISO-8601 UTC time",
    ]);
  });
  test("a valid record is normalised: empty code, tag and picurl become null, keywords are trimmed", () => {
    const { value, problems } = validateArticle({ ...ok, code: "", tag: null, picurl: "", description: null, keywords: [" a ", "b"], deleted: false });
    expect(problems).toEqual([]);
    expect(value).toEqual({ ...ok, code: null, tag: null, picurl: null, description: "", keywords: ["a", "b"], deleted: false });
    expect(validateArticle({ ...ok, keywords: ["a", "  "] }).problems.map((p) => p.reason)).toEqual(["each word must be 1–32 characters"]);
    expect(validateArticle({ ...ok, keywords: ["a", 1] }).problems.map((p) => p.reason)).toEqual(["must be an array of strings"]);
  });
  test("a title or description past its limit says how long it is; one at the limit passes (in code points: an emoji is one)", () => {
    expect(validateArticle({ ...ok, title: "When will I know my prescription is ready, and how long will you hold it?" }).problems.map((p) => p.reason)).toEqual(["must be 1–64 characters; it is 73"]);
    expect(validateArticle({ ...ok, title: "处".repeat(64) }).problems).toEqual([]);
    expect(validateArticle({ ...ok, title: "😀".repeat(65) }).problems.map((p) => p.reason)).toEqual(["must be 1–64 characters; it is 65"]);
    expect(validateArticle({ ...ok, title: "  " }).problems.map((p) => p.reason)).toEqual(["must be 1–64 characters"]);
    expect(validateArticle({ ...ok, description: "x".repeat(513) }).problems.map((p) => p.reason)).toEqual(["must be at most 512 characters; it is 513"]);
    expect(validateArticle({ ...ok, description: "x".repeat(512) }).problems).toEqual([]);
  });
  test("problems carry the record's place in a document", () => {
    expect(validateArticle({ url: "https://example.com/" }, { index: 4, section: "articles" }).problems).toEqual([
      { section: "articles", index: 4, field: "title", reason: "is required" },
    ]);
  });
});

describe("documents", () => {
  test("a bare array is a document of articles", () => {
    const d = parseDocument(JSON.stringify([article(1)]));
    expect(d.matter).toBe("articles");
    expect(d.articles?.[0]?.id).toBe("a1");
  });
  test("malformed JSON is bad_json", () => {
    expect(() => parseDocument("{")).toThrow(expect.objectContaining({ code: CODE.bad_json, status: 400 }));
  });
  test("every problem is listed with its index and field", () => {
    const problems = problemsOf(() => parseDocument(doc([article(1), { title: "", url: "x" }, article(3, { tag: "BAD" })])));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ section: "articles", index: 1, field: "title" }),
        expect.objectContaining({ section: "articles", index: 1, field: "url" }),
        expect.objectContaining({ section: "articles", index: 2, field: "tag" }),
      ]),
    );
    expect(problems).toHaveLength(3);
  });
  test("duplicate ids and case-insensitive duplicate codes are refused", () => {
    const problems = problemsOf(() => parseDocument(doc([article(1), article(1, { code: "x1" }), article(3, { code: "C1" })])));
    expect(problems.map((p) => `${p.index}.${p.field}`).sort()).toEqual(["1.id", "2.code"]);
  });
  test("a code is kept as a follower's typing is read (NFKC): full width as ASCII, so ８ and 8 are one code, refused twice", () => {
    expect(parseDocument(doc([article(1, { code: "ＦＶ７" })])).articles?.[0]?.code).toBe("FV7");
    const problems = problemsOf(() => parseDocument(doc([article(1, { code: "８" }), article(2, { code: "8" })])));
    expect(problems.map((p) => `${p.index}.${p.field}`)).toEqual(["1.code"]);
    // Made into no code by the reading: a ligature normalising to spaces is refused as one with spaces.
    expect(problemsOf(() => parseDocument(doc([article(1, { code: "\ufdfa" })]))).map((p) => p.field)).toEqual(["code"]);
  });
  test("a deleted article's code may repeat a live one", () => {
    expect(() => parseDocument(doc([article(1), article(2, { code: "c1", deleted: true })]))).not.toThrow();
  });
  test("sections must fit the matter", () => {
    const text = JSON.stringify({ format: "replyd/1", matter: "texts", created_at: "2026-11-21T10:00:00.000Z", articles: [] });
    expect(problemsOf(() => parseDocument(text)).map((p) => p.field)).toContain("articles");
  });
  test("format, matter and unknown top-level fields are checked", () => {
    const problems = problemsOf(() => parseDocument(JSON.stringify({ format: "replyd/2", matter: "stuff", extra: 1 })));
    expect(problems.map((p) => p.field).sort()).toEqual(["extra", "format", "matter"]);
  });
  test("an account a backup names is kept as read; one that is no account name is refused, naming the field", () => {
    expect(parseDocument(doc([article(1)], { account: "shop" })).account).toBe("shop");
    expect(parseDocument(doc([article(1)])).account).toBeUndefined();
    for (const account of ["Shop", "", 7, "a".repeat(33), "../blog"]) {
      const problems = problemsOf(() => parseDocument(doc([article(1)], { account })));
      expect(problems.map((p) => `${p.field}: ${p.reason}`)).toEqual(["account: must be an account name: 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit"]);
    }
  });
  test("rules and texts are validated too", () => {
    const text = doc([], {
      rules: [
        { id: "r1", match: "regex", pattern: "(", reply: { type: "text", text: "x" } },
        { id: "r2", match: "fuzzy", pattern: "x", reply: { type: "tag", tag: "news" } },
        { id: "r1", match: "exact", pattern: "x", reply: { type: "articles", ids: [] } },
      ],
      texts: { welcome: "hi", bogus: "x" },
    });
    const problems = problemsOf(() => parseDocument(text));
    expect(problems.map((p) => `${p.section}.${p.index ?? ""}.${p.field}`).sort()).toEqual(["rules.0.pattern", "rules.1.match", "rules.2.reply.ids", "texts..bogus"]);
  });

  test("sha256 covers the document without the field, keys in the order written", () => {
    const base = JSON.parse(doc([article(1)], { tags: { news: "News", "2024": "Year" } }));
    const sha = documentDigest(base);
    const text = JSON.stringify({ ...base, sha256: sha });
    expect(parseDocument(text).sha256).toBe(sha);
    const edited = text.replace("Article 1", "Article 2");
    expect(() => parseDocument(edited)).toThrow(expect.objectContaining({ code: CODE.checksum_mismatch }));
    // The refusal says how to import a backup edited on purpose; without the member it is.
    expect(() => parseDocument(edited)).toThrow('remove its "sha256" member, which is optional, to import it');
    const { sha256: _, ...unsigned } = JSON.parse(edited) as Record<string, unknown>;
    expect(parseDocument(JSON.stringify(unsigned)).articles?.[0]?.title).toBe("Article 2");
    const truncated = JSON.stringify({ ...base, articles: [], sha256: sha });
    expect(() => parseDocument(truncated)).toThrow(expect.objectContaining({ code: CODE.checksum_mismatch }));
  });

  test("DocumentWriter output parses back and verifies", () => {
    let text = "";
    const w = new DocumentWriter((c) => (text += c), "all", "2026-11-21T10:00:00.000Z");
    w.array("articles", [article(1), article(2)]);
    w.field("tags", { news: "News", "7": "seven" });
    w.array("rules", []);
    w.field("texts", { welcome: "hi" });
    const sha = w.finish();
    const parsed = parseDocument(text);
    expect(parsed.sha256).toBe(sha);
    expect(parsed.articles).toHaveLength(2);
    expect(documentDigest(JSON.parse(text))).toBe(sha);
  });

  test("requireSections refuses a restore of more than the document holds", () => {
    const d = parseDocument(JSON.stringify([article(1)]));
    expect(() => requireSections(d, "all")).toThrow(expect.objectContaining({ code: CODE.matter_mismatch }));
    expect(() => requireSections(d, "articles")).not.toThrow();
  });
});
