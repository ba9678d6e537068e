/**
 * Reducing bodies never holds the event loop (docs/reliability.md), on each store: a document of
 * heavy bodies imported and restored through a listening server while a follower is answered, and
 * one heavy body added and set through the app while the loop is watched.
 */
import { expect, test } from "bun:test";
import { CODE } from "../../src/errors.ts";
import { startServer } from "../../src/server/serve.ts";
import { parseXml } from "../../src/wechat/xml.ts";
import { ADMIN_ENV, article, body, doc, serveOpts, signedRequest, tempDir, testApp, TEST_STORE } from "../helpers.ts";
import { watchingLoop } from "../loop.ts";
import { testDatabase } from "../pg.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const MIB = 1 << 20;
const fill = (s: string, bytes = MIB - 1024) => s.repeat(Math.floor(bytes / s.length));
/** Bodies of about 1 MiB, each 30-60 ms to reduce at once here, that keep little. */
const HEAVY = [fill("<b>"), fill("<div hidden>"), fill('<i style="a:b">'), fill("<li hidden>a"), "<p>kept</p>" + fill("<span>")];

test("a document of 16 heavy bodies imported, then restored, through a listening server: a follower's message is answered within 250 ms throughout", async () => {
  const tmp = tempDir();
  const db = TEST_STORE === "postgres" ? await testDatabase() : null;
  const server = await startServer(serveOpts(tmp.dir, { env: ADMIN_ENV, wechat: { token: TOKEN }, maxUpload: 24 * MIB, ...(db ? { db: db.url } : {}) }));
  const admin = async (method: string, path: string, text: string, fields: [string, string][] = []) => {
    const req = signedRequest(method, path, { nowMs: Date.now(), fields, files: [{ name: "json", content: text }] });
    const res = await fetch(server.url + path, { method, headers: req.headers, body: await req.arrayBuffer() });
    return { status: res.status, ...(await body(res)) };
  };
  /** Sends a follower's message again and again until `work` ends; answers how long each reply took. */
  const follower = async <T>(work: Promise<T>) => {
    let done = false;
    const ended = work.finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const now = Math.floor(Date.now() / 1000);
      const xml = textMsg("help", now);
      const url = new URL(wxPost(xml, now).url);
      const started = performance.now();
      const res = await fetch(server.url + url.pathname + url.search, { method: "POST", body: xml });
      expect(parseXml(await res.text()).MsgType).toBe("text");
      waits.push(performance.now() - started);
      await Bun.sleep(5);
    }
    return { answer: await ended, waits };
  };
  try {
    const text = doc(Array.from({ length: 16 }, (_, i) => article(i, { body: HEAVY[i % HEAVY.length] })), { matter: "articles" });
    const imported = await follower(admin("POST", "/api/cli", text, [["mode", "merge"]]));
    expect(imported.answer).toMatchObject({ status: 200, data: { added: 16 } });
    const restored = await follower(admin("PUT", "/api/cli/revert/articles", text));
    expect(restored.answer.status).toBe(200);
    for (const { waits } of [imported, restored]) {
      // Answered while the document was being read: the event loop was free all along.
      expect(waits.length).toBeGreaterThan(3);
      expect(Math.max(...waits)).toBeLessThan(250);
    }
  } finally {
    await server.stop();
    await db?.drop();
    tmp.cleanup();
  }
});

test("add and set with a 1 MiB body of list items and references: the event loop is never held 50 ms; the text kept is judged as before", async () => {
  const t = await testApp();
  try {
    // Signed before the loop is watched: signing hashes the body, the test's own work.
    const signed = (method: string, fields: [string, string][], content: string) => {
      t.clock.advance(1);
      return signedRequest(method, "/api/cli", { nowMs: t.clock.now(), fields, files: [{ name: "body", content, filename: "body.html" }] });
    };
    const answer = async (req: Request) => body(await t.handle(req));
    // The app's first answers compile its routes: not what is measured.
    expect((await answer(signed("POST", [["id", "w"], ["title", "W"], ["url", "https://e.com/w"]], "<p>warm</p>"))).ok).toBe(true);
    // A slice's cost repeats; a loaded machine's pause does not: the best of up to three tries is judged.
    const best = async (make: (i: number) => Request, check: (value: unknown) => void) => {
      let longest = Infinity;
      for (let i = 0; i < 3 && longest >= 50; i++) {
        const r = await watchingLoop(() => answer(make(i)));
        check(r.value);
        longest = Math.min(longest, r.longestMs);
      }
      return longest;
    };
    const added = await best(
      (i) => signed("POST", [["id", `x${i}`], ["title", "X"], ["url", "https://e.com/x"]], HEAVY[4] as string),
      (v) => expect(v).toMatchObject({ ok: true, data: { article: { body: "kept" } } }),
    );
    expect(added).toBeLessThan(50);
    // 74 ms to reduce at once here; kept, it is more than 64 KiB: refused, as it was.
    const refused = await best(
      () => signed("PUT", [["id", "x0"]], fill("<li>&#1;")),
      (v) => expect(v).toMatchObject({ ok: false, error: { code: CODE.invalid_article } }),
    );
    expect(refused).toBeLessThan(50);
  } finally {
    t.close();
  }
});
