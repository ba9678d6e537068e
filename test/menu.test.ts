/** The menu's validation (issue 13 §2): each platform limit at its bound and one past it. */
import { describe, expect, test } from "bun:test";
import { requireSections } from "../src/doc/document.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { NO_CONTROL } from "../src/article/article.ts";
import { validateMenu } from "../src/doc/menu.ts";

const click = (name = "Songs", key = "K1") => ({ type: "click", name, key });
const ok = (menu: unknown): unknown => validateMenu(menu).value;
const reasons = (menu: unknown) => validateMenu(menu).problems.map((p) => `${p.field}: ${p.reason}`);

describe("validateMenu", () => {
  test("the documented shape passes, every button type with what it needs", () => {
    const menu = {
      button: [
        click(),
        {
          name: "More",
          sub_button: [
            { type: "view", name: "Site", url: "https://example.com/" },
            { type: "miniprogram", name: "App", url: "https://example.com/", appid: "wx286b93c14bbf93aa", pagepath: "pages/lunar/index" },
            { type: "media_id", name: "Pic", media_id: "MEDIA_ID1" },
            { type: "article_id", name: "Post", article_id: "ARTICLE_ID1" },
            { type: "article_view_limited", name: "Post 2", article_id: "ARTICLE_ID2" },
          ],
        },
        {
          name: "Tools",
          sub_button: ["scancode_push", "scancode_waitmsg", "pic_sysphoto", "pic_photo_or_album", "location_select"].map((type, i) => ({ type, name: type, key: `k${i}` })),
        },
      ],
    };
    expect(ok(menu)).toEqual(menu);
    expect(ok({ button: [{ type: "pic_weixin", name: "W", key: "w" }] })).toBeDefined();
  });
  test("1–3 top buttons, 1–5 sub-buttons", () => {
    expect(reasons({ button: [] })).toEqual(["button: must be a list of 1–3 top buttons"]);
    expect(ok({ button: [click("a"), click("b"), click("c")] })).toBeDefined();
    expect(reasons({ button: [click("a"), click("b"), click("c"), click("d")] })).toEqual(["button: must be a list of 1–3 top buttons (4 given)"]);
    const subs = (n: number) => ({ button: [{ name: "M", sub_button: Array.from({ length: n }, (_, i) => click(`s${i}`, `k${i}`)) }] });
    expect(ok(subs(5))).toBeDefined();
    expect(reasons(subs(6))).toContain("button[0].sub_button: must hold 1–5 buttons (6 given)");
  });
  test("names in bytes: top ≤ 16, sub-button ≤ 60 (a Chinese character is 3)", () => {
    expect(ok({ button: [click("一二三四五")] })).toBeDefined(); // 15 bytes
    expect(ok({ button: [click("a".repeat(16))] })).toBeDefined();
    expect(reasons({ button: [click("一二三四五六")] })[0]).toStartWith("button[0].name: must be at most 16 bytes (18 given");
    expect(ok({ button: [{ name: "M", sub_button: [click("a".repeat(60))] }] })).toBeDefined();
    expect(reasons({ button: [{ name: "M", sub_button: [click("a".repeat(61))] }] })[0]).toStartWith("button[0].sub_button[0].name: must be at most 60 bytes");
    expect(reasons({ button: [click("")] })).toEqual(["button[0].name: is required"]);
  });
  test("key ≤ 128 bytes, url ≤ 1024 bytes and http(s)", () => {
    expect(ok({ button: [click("a", "k".repeat(128))] })).toBeDefined();
    expect(reasons({ button: [click("a", "k".repeat(129))] })).toEqual(["button[0].key: must be at most 128 bytes"]);
    const view = (url: string) => ({ button: [{ type: "view", name: "v", url }] });
    const base = "https://example.com/";
    expect(ok(view(base + "x".repeat(1024 - base.length)))).toBeDefined();
    expect(reasons(view(base + "x".repeat(1025 - base.length)))).toEqual(["button[0].url: must be at most 1024 bytes"]);
    expect(reasons(view("javascript:alert(1)"))).toEqual(["button[0].url: must be an absolute http(s) URL"]);
    expect(reasons(view("ftp://example.com/"))).toEqual(["button[0].url: must be an absolute http(s) URL"]);
  });
  test("types: unknown refused; each needs its fields and takes no others; miniprogram needs appid and pagepath", () => {
    expect(reasons({ button: [{ type: "text", name: "t", key: "k" }] })[0]).toStartWith("button[0].type: must be one of click, view");
    expect(reasons({ button: [{ type: "click", name: "t" }] })).toEqual(["button[0].key: a click button needs key"]);
    expect(reasons({ button: [{ type: "click", name: "t", key: "k", url: "https://e.com/" }] })).toEqual(["button[0].url: a click button has no url"]);
    expect(reasons({ button: [{ type: "miniprogram", name: "m", url: "https://e.com/" }] })).toEqual([
      "button[0].appid: a miniprogram button needs appid",
      "button[0].pagepath: a miniprogram button needs pagepath",
    ]);
    expect(reasons({ button: [{ type: "miniprogram", name: "m", url: "https://e.com/", appid: "nope", pagepath: "p" }] })).toEqual([
      "button[0].appid: must be a mini program's appid (wx and 16 hex digits)",
    ]);
    expect(reasons({ button: [{ name: "M", type: "click", key: "k", sub_button: [click()] }] })).toEqual([
      "button[0].type: a button with sub-buttons has no type of its own",
      "button[0].key: a button with sub-buttons has no action of its own",
    ]);
  });
  test("every problem is listed at once; control characters and unknown fields refused", () => {
    const r = reasons({ button: [click("a\u001b[2J", "k"), { type: "view", name: "v", url: "nope", colour: "red" }], extra: 1 });
    expect(r).toEqual([
      "extra: unknown field (a menu has only button)",
      `button[0].name: ${NO_CONTROL}`,
      "button[1].colour: unknown field",
      "button[1].url: must be an absolute http(s) URL",
    ]);
  });
  test("four top buttons, a 200-byte key and an ftp: URL: all three named in one answer", () => {
    const r = reasons({ button: [click("a", "k".repeat(200)), click("b"), { type: "view", name: "c", url: "ftp://example.com/f" }, click("d")] });
    expect(r).toEqual([
      "button: must be a list of 1–3 top buttons (4 given)",
      "button[0].key: must be at most 128 bytes",
      "button[2].url: must be an absolute http(s) URL",
    ]);
  });
  test("a lone surrogate is refused in names and every value", () => {
    expect(reasons({ button: [click("a\ud800b", "k")] })).toEqual([`button[0].name: ${NO_CONTROL}`]);
    expect(reasons({ button: [click("a", "k\udc00")] })).toEqual([`button[0].key: ${NO_CONTROL}`]);
    expect(reasons({ button: [{ type: "view", name: "v", url: "https://example.com/\ud83d" }] })).toEqual([`button[0].url: ${NO_CONTROL}`]);
    expect(ok({ button: [click("a\ud83d\ude00", "k")] })).toBeDefined();
  });
  test("leaf buttons' empty sub_button lists (as menu/get answers them) are accepted and dropped", () => {
    expect(ok({ button: [{ ...click(), sub_button: [] }] })).toEqual({ button: [click()] });
  });
});

describe("the menu in documents", () => {
  const menu = { button: [click()] };
  const docOf = (matter: string, extra: Record<string, unknown>) => JSON.stringify({ format: "replyd/1", matter, created_at: "2026-11-21T10:00:00.000Z", ...extra });
  test("matter menu holds a menu (or null: none); it is validated with the document", () => {
    expect(parseDocument(docOf("menu", { menu })).menu as unknown).toEqual(menu);
    expect(parseDocument(docOf("menu", { menu: null })).menu).toBeNull();
    expect(() => parseDocument(docOf("menu", { menu: { button: [] } }))).toThrow("invalid");
    expect(() => parseDocument(docOf("rules", { rules: [], menu }))).toThrow("invalid");
  });
  test("a restore of menu needs the section; an all document from before menus restores without one", () => {
    expect(() => requireSections(parseDocument(docOf("menu", {})), "menu")).toThrow("needs the document's menu");
    expect(() => requireSections(parseDocument(docOf("all", { articles: [], rules: [], texts: {} })), "all")).not.toThrow();
  });
});

test("the client's menu tree lines up Chinese and Latin names in terminal columns", async () => {
  const { menuTree } = await import("../src/cli/commands/menu.ts");
  const lines = menuTree({ button: [{ type: "click", name: "营业时间", key: "k1" }, { name: "More", sub_button: [{ type: "view", name: "Site", url: "https://e.com/" }] }] });
  const column = (line: string, word: string) => Bun.stringWidth(line.slice(0, line.indexOf(word)));
  expect(column(lines[0] as string, "click")).toBe(column(lines[2] as string, "view"));
});
