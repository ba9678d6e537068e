/** Menus (issue 13 §2) through the admin routes, against the fake platform. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN, READER, signedRequest, dataFolderTest } from "../helpers.ts";
import type { FakePlatform } from "../platform/fake.ts";
import { platformApp, type Harness } from "../platform/harness.ts";
import { eventMsg, wxPost } from "./helpers.ts";
import { CODE } from "../../src/base/errors.ts";

const MENU = {
  button: [
    { type: "click", name: "Songs", key: "SONGS" },
    { name: "More", sub_button: [{ type: "view", name: "Site", url: "https://example.com/" }, { type: "click", name: "Hello", key: "HELLO" }] },
  ],
};
const RULES = { format: "replyd/1", matter: "rules", created_at: "2026-11-21T10:00:00.000Z", rules: [{ id: "songs", match: "exact", pattern: "songs", reply: { type: "text", text: "Today's songs" } }] };

let h: Harness, fake: FakePlatform, t: Harness["t"];
beforeEach(async () => void ({ fake, t } = h = await platformApp()));
afterEach(() => h.close());

const call = (method: string, path: string, o: Parameters<typeof signedRequest>[2] = {}) => h.call(method, path, o);
const setMenu = (menu: unknown, fields: [string, string][] = []) => call("PUT", "/api/cli/menu", { fields, files: [{ name: "json", content: JSON.stringify(menu) }] });

describe("menu set, push, show, rm", () => {
  test("set pushes the menu, then stores it as pushed; a click key no rule answers is a warning", async () => {
    await call("PUT", "/api/cli/revert/rules", { files: [{ name: "json", content: JSON.stringify(RULES) }] });
    const r = await setMenu(MENU);
    expect(r.status).toBe(200);
    expect(fake.menu).toEqual(MENU);
    expect(r.data.pushed_at).toBeString();
    expect(r.data.warnings).toEqual(['button[1].sub_button[1] "Hello": no rule answers key "HELLO"; followers who press it get the fallback text']);
    const shown = await call("GET", "/api/cli/menu", { key: READER });
    expect(shown.data).toMatchObject({ menu: MENU, pushed_at: r.data.pushed_at });
  });
  test("a menu the platform refuses (a url domain it does not allow) is not stored", async () => {
    fake.refuseDomain("example.com");
    const r = await setMenu(MENU);
    expect(r.status).toBe(502);
    expect(r.error.code).toBe(CODE.platform_refused);
    expect(r.error.message).toBe("the platform refused the menu: the platform answered 40054: invalid sub button url domain; nothing was stored");
    expect(r.error.errcode).toBe(40054);
    expect((await call("GET", "/api/cli/menu")).data.menu).toBeNull();
  });
  test("an invalid menu lists every problem and reaches neither the store nor the platform", async () => {
    const r = await setMenu({ button: [{ type: "click", name: "一二三四五六", key: "k" }, { type: "view", name: "v", url: "ftp://x" }] });
    expect(r.status).toBe(400);
    expect(r.error.code).toBe(CODE.invalid_menu);
    expect(r.error.problems).toHaveLength(2);
    expect(fake.calls.api).toBe(0);
  });
  test("push=0 stores without pushing (shown as not pushed); push sends the stored menu", async () => {
    const r = await setMenu(MENU, [["push", "0"]]);
    expect(r.data.pushed_at).toBeNull();
    expect(fake.menu).toBeNull();
    const pushed = await call("POST", "/api/cli/menu");
    expect(pushed.data.pushed_at).toBeString();
    expect(fake.menu).toEqual(MENU);
    expect((await call("GET", "/api/cli")).data.menu).toMatchObject({ pushed_at: pushed.data.pushed_at });
  });
  test("another system invalidated the token (or it expired): the push is refreshed once and retried, unseen", async () => {
    await setMenu(MENU, [["push", "0"]]);
    await h.platform.token();
    fake.invalidate();
    expect((await call("POST", "/api/cli/menu")).status).toBe(200);
    // The platform's clock alone: replyd believes its token good, the platform answers 42001.
    fake.advance(7200_000);
    const before = fake.calls.normal;
    expect((await call("POST", "/api/cli/menu")).status).toBe(200);
    expect(fake.calls.normal).toBe(before + 1);
    expect(fake.menu).toEqual(MENU);
  });
  test("two sets at once are made one after the other: the platform and the store end with the same menu", async () => {
    const A = { button: [{ type: "click", name: "A", key: "A" }] };
    const B = { button: [{ type: "click", name: "B", key: "B" }] };
    fake.slowAnswer(150); // A takes effect on the platform at once, its answer comes late
    h.age(1000);
    const req = (m: unknown) => t.handle(signedRequest("PUT", "/api/cli/menu", { nowMs: t.clock.now(), files: [{ name: "json", content: JSON.stringify(m) }] }));
    const first = req(A);
    await Bun.sleep(20);
    const second = req(B);
    expect((await Promise.all([first, second])).map((r) => r.status)).toEqual([200, 200]);
    expect(fake.menu).toEqual(B);
    expect((await call("GET", "/api/cli/menu")).data.menu).toEqual(B);
  });
  dataFolderTest("the platform took the menu but the store cannot be written: the answer says the platform has it", async () => {
    const full = () => {
      throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    };
    t.store.saveMenu = full;
    const pushed = await setMenu(MENU);
    expect(pushed.status).toBe(507);
    expect(pushed.error.code).toBe(CODE.not_stored);
    expect(pushed.error.message).toStartWith("the platform took the menu, but it could not be stored");
    expect(fake.menu).toEqual(MENU);
    // Not pushed: nothing reached the platform, so the usual "nothing was written".
    const stored = await setMenu({ button: [{ type: "click", name: "X", key: "X" }] }, [["push", "0"]]);
    expect(stored.error.code).toBe(CODE.disk_full);
  });
  test("rm deletes the live menu, then the stored one (kept as an automatic backup); keep_live=1 leaves the platform's", async () => {
    await setMenu(MENU);
    const r = await call("DELETE", "/api/cli/menu");
    expect(r.data).toMatchObject({ removed: true, live_deleted: true, backup: { id: expect.stringMatching(/^menu-/) } });
    expect(fake.menu).toBeNull();
    await setMenu(MENU);
    expect((await call("DELETE", "/api/cli/menu", { fields: [["keep_live", "1"]] })).data.live_deleted).toBe(false);
    expect(fake.menu).toEqual(MENU);
  });
  test("without --wx-secret: set refuses (say push=0), push refuses, show works; a read key cannot change the menu", async () => {
    await h.withoutPlatform();
    expect((await setMenu(MENU)).error).toMatchObject({ code: CODE.platform_not_configured, message: expect.stringContaining("push=0") });
    expect((await setMenu(MENU, [["push", "0"]])).status).toBe(200);
    expect((await call("POST", "/api/cli/menu")).error.code).toBe(CODE.platform_not_configured);
    expect((await call("PUT", "/api/cli/menu", { key: READER, fields: [["pull", "1"]] })).status).toBe(403);
  });
});

describe("menu pull", () => {
  test("a console menu: text buttons become clicks answered by new rules, temporary media a click with a warning", async () => {
    fake.consoleMenu({
      button: [
        { type: "text", name: "Hours", value: "Open 9–17, Monday to Friday" },
        { name: "More", sub_button: { list: [{ type: "view", name: "Site", url: "https://example.com/" }, { type: "img", name: "Map", value: "TEMP_MEDIA" }, { type: "news", name: "Intro", value: "NEWS_MEDIA_ID", news_info: { list: [] } }] } },
      ],
    });
    const r = await call("PUT", "/api/cli/menu", { fields: [["pull", "1"]] });
    expect(r.status).toBe(200);
    expect(r.data.menu).toEqual({
      button: [
        { type: "click", name: "Hours", key: "replyd_menu_1" },
        { name: "More", sub_button: [{ type: "view", name: "Site", url: "https://example.com/" }, { type: "click", name: "Map", key: "replyd_menu_2" }, { type: "media_id", name: "Intro", media_id: "NEWS_MEDIA_ID" }] },
      ],
    });
    expect(r.data.rules_added).toEqual(["menu-text-1"]);
    // Changed from the console's: stored as not pushed, so the operator pushes replyd's version.
    expect(r.data.pushed_at).toBeNull();
    expect(r.data.warnings.join("\n")).toContain('"Map" sent an image chosen in the console');
    expect(r.data.warnings.join("\n")).toContain('no rule answers key "replyd_menu_2"');
    expect(r.data.warnings.join("\n")).not.toContain('key "replyd_menu_1"');
    // The follower who presses "Hours" gets the text the console gave.
    const res = await t.handle(wxPost(eventMsg("CLICK", Math.floor(t.clock.now() / 1000), "replyd_menu_1"), Math.floor(t.clock.now() / 1000)));
    expect(await res.text()).toContain("Open 9–17, Monday to Friday");
  });
  test("a rule of the operator's with the id a pull would give keeps it: the pull's rule takes another id, after a backup of the rules", async () => {
    const mine = { id: "menu-text-1", match: "exact", pattern: "opening hours", reply: { type: "text", text: "Mine, not the console's" } };
    await call("PUT", "/api/cli/revert/rules", { files: [{ name: "json", content: JSON.stringify({ ...RULES, rules: [mine] }) }] });
    fake.consoleMenu({ button: [{ type: "text", name: "Hours", value: "Open 9–17" }] });
    const r = await call("PUT", "/api/cli/menu", { fields: [["pull", "1"]] });
    expect(r.status).toBe(200);
    expect(r.data.rules_added).toEqual(["menu-text-1-2"]);
    expect(r.data.rules_backup.id).toStartWith("rules-");
    const backup = await call("GET", "/api/cli/revert/rules", { fields: [["id", r.data.rules_backup.id]] });
    expect((backup as unknown as { rules: unknown[] }).rules).toEqual([mine]);
    const rules = (await call("GET", "/api/cli/revert/rules")).data.backups;
    expect(rules.length).toBeGreaterThanOrEqual(1);
    // Both answer: the operator's rule its pattern, the pull's the button.
    const now = Math.floor(t.clock.now() / 1000);
    expect(await (await t.handle(wxPost(eventMsg("CLICK", now, "replyd_menu_1"), now))).text()).toContain("Open 9–17");
    // Pulled again: the same rule is found under its id, nothing added, no second backup.
    const again = await call("PUT", "/api/cli/menu", { fields: [["pull", "1"]] });
    expect(again.data.rules_added).toEqual(["menu-text-1-2"]);
    expect(again.data.rules_backup).toBeUndefined();
  });
  test("an API menu comes back as it is (stored as pushed); conditional menus are named in a warning", async () => {
    await setMenu(MENU);
    await call("DELETE", "/api/cli/menu", { fields: [["keep_live", "1"]] });
    fake.conditional(2);
    const r = await call("PUT", "/api/cli/menu", { fields: [["pull", "1"]] });
    expect(r.data.menu).toEqual(MENU);
    expect(r.data.pushed_at).toBeString();
    expect(r.data.warnings[0]).toContain("2 conditional menu(s)");
  });
  test("no menu open: 404 and nothing stored", async () => {
    const r = await call("PUT", "/api/cli/menu", { fields: [["pull", "1"]] });
    expect(r.status).toBe(404);
    expect(r.error.code).toBe(CODE.no_live_menu);
  });
});

describe("the menu in backups and restores", () => {
  test("backups of all and menu carry it; a restore stores it and pushes only with push=1", async () => {
    await setMenu(MENU);
    const b = await call("POST", "/api/cli/revert/menu");
    expect(b.data.counts).toEqual({ menu: 1 });
    await call("DELETE", "/api/cli/menu");
    expect(fake.menu).toBeNull();
    const plain = await call("PUT", "/api/cli/revert/menu", { fields: [["id", b.data.id]] });
    expect(plain.data.menu).toBe("stored");
    expect(fake.menu).toBeNull();
    expect((await call("GET", "/api/cli/menu")).data.pushed_at).toBeNull();
    const pushed = await call("PUT", "/api/cli/revert/menu", { fields: [["id", b.data.id], ["push", "1"]] });
    expect(pushed.data.menu_push).toEqual({ pushed: true });
    expect(fake.menu).toEqual(MENU);
    const all = await call("POST", "/api/cli/revert/all");
    expect(all.data.counts.menu).toBe(1);
  });
  test("push=1 without a platform is refused before anything is replaced", async () => {
    await setMenu(MENU);
    const b = await call("POST", "/api/cli/revert/menu");
    await call("DELETE", "/api/cli/menu");
    await h.withoutPlatform();
    const r = await call("PUT", "/api/cli/revert/menu", { fields: [["id", b.data.id], ["push", "1"]] });
    expect(r.error.code).toBe(CODE.platform_not_configured);
    expect((await call("GET", "/api/cli/menu")).data.menu).toBeNull();
  });
});

test("a menu click no rule answers gets the fallback text and is listed in the inbox", async () => {
  const now = Math.floor(t.clock.now() / 1000);
  const res = await t.handle(wxPost(eventMsg("CLICK", now, "NOBODY"), now));
  expect(await res.text()).toContain("Sorry, I did not understand that");
  const inbox = await call("GET", "/api/cli", { fields: [["inbox", "unmatched"]] });
  expect(inbox.data.items[0]).toMatchObject({ type: "event", event: "CLICK", answer: "fallback", unmatched: true });
  // A QR scene nothing answers stays silent, as before.
  const scan = await t.handle(wxPost(eventMsg("SCAN", now + 1, "scene9"), now + 1));
  expect(await scan.text()).toBe("success");
  void ADMIN;
});
