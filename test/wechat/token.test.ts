/** The token keeper (issue 13 §1) against the fake platform. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fixedClock } from "../../src/base/clock.ts";
import { PlatformClient } from "../../src/wechat/platform/client.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "../binary-server.ts";
import { ADMIN, body, READER, signedRequest, T0, tempDir, testApp } from "../helpers.ts";
import { startFakePlatform, type FakePlatform } from "../platform/fake.ts";
import { CODE } from "../../src/base/errors.ts";

const APPID = "wx0123456789abcdef";
const SECRET = "0123456789abcdef0123456789abcdef";
let fake: FakePlatform;
let clock: ReturnType<typeof fixedClock>;
const logs: string[] = [];
const keeper = (secret = SECRET) => new PlatformClient({ api: fake.url, appid: APPID, secret, clock, log: (m) => logs.push(m) });
beforeEach(() => {
  fake = startFakePlatform(APPID, SECRET);
  clock = fixedClock(T0);
  logs.length = 0;
});
afterEach(() => fake.stop());
const age = (ms: number) => {
  clock.advance(ms);
  fake.advance(ms);
};

describe("the access token", () => {
  test("a client printed, inspected or serialised (a stray console.log, an error's context) shows neither the AppSecret nor the access token", async () => {
    const k = keeper();
    const { token } = await k.token();
    const shown = [Bun.inspect(k, { depth: 10 }), JSON.stringify(k), Object.keys(k).join(" "), String(k)].join("\n");
    // Not expect(shown).not.toContain(…): a failure would print the text that holds them.
    expect(shown.includes(SECRET)).toBe(false);
    expect(shown.includes(token)).toBe(false);
    k.stop();
  });
  test("one request in flight however many ask; then served from memory", async () => {
    const k = keeper();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => k.token()));
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    expect(fake.calls.normal).toBe(1);
    await k.token();
    expect(fake.calls.normal).toBe(1);
    expect(k.status.link).toBe("ok");
    k.stop();
  });
  test("asked for again once less than 6 minutes are left; the platform renews it then", async () => {
    const k = keeper();
    const first = await k.token();
    age((7200 - 7 * 60) * 1000);
    expect((await k.token()).token).toBe(first.token); // 7 minutes left: still served
    age(2 * 60_000);
    const renewed = await k.token(); // 5 minutes left: asked again, the platform renews
    expect(renewed.token).not.toBe(first.token);
    expect(fake.calls.normal).toBe(2);
    k.stop();
  });
  test("a call refused for an invalid token (another system forced a refresh) is refreshed once and retried once", async () => {
    const k = keeper();
    await k.token();
    fake.invalidate();
    expect(await k.call<{ is_menu_open: number }>("/cgi-bin/get_current_selfmenu_info")).toEqual({ is_menu_open: 0 });
    expect(fake.calls.api).toBe(2);
    expect(fake.calls.forced).toBe(0);
    k.stop();
  });
  test("forced refreshes keep the platform's limits: 30 s apart, 20 a day", async () => {
    const k = keeper();
    await k.refresh(true);
    await expect(k.refresh(true)).rejects.toThrow("30 s apart");
    for (let i = 1; i < 20; i++) {
      age(31_000);
      await k.refresh(true);
    }
    age(31_000);
    await expect(k.refresh(true)).rejects.toThrow("20 forced");
    expect(fake.calls.forced).toBe(20);
    k.stop();
  });
  test("a wrong secret or a missing IP whitelist entry shows in the status with what to do; the secret never does", async () => {
    const wrong = keeper("ffffffffffffffffffffffffffffffff");
    await expect(wrong.token()).rejects.toThrow("40125");
    expect(wrong.status).toMatchObject({ link: "error", errcode: 40125, advice: expect.stringContaining("--wx-secret") });
    fake.whitelist(false);
    const k = keeper();
    await expect(k.token()).rejects.toThrow("40164");
    expect(k.status.advice).toContain("IP whitelist");
    for (const text of [JSON.stringify(wrong.status), JSON.stringify(k.status), ...logs]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("ffffffffffffffffffffffffffffffff");
    }
  });
});

describe("the platform's answers are read through one bounded door", () => {
  /** A keeper whose API calls (not the token request) get `answer`. */
  const answering = (answer: () => Response) => {
    const real = globalThis.fetch;
    const fetch = (async (url: string | URL | Request, init?: RequestInit) =>
      String(url).includes("/cgi-bin/stable_token") ? real(url, init) : answer()) as typeof globalThis.fetch;
    return new PlatformClient({ api: fake.url, appid: APPID, secret: SECRET, clock, log: (m) => logs.push(m), fetch });
  };
  test("a proxy's HTML error page is a clear error, not a JSON parse failure", async () => {
    const k = answering(() => new Response("<html>502 Bad Gateway</html>", { status: 502 }));
    await expect(k.call("/cgi-bin/menu/get")).rejects.toThrow("the platform answered HTTP 502 with something that is not its JSON");
    expect(k.status).toMatchObject({ link: "error" });
    k.stop();
  });
  test("an answer past 1 MiB is refused, whether it declares its length or streams it", async () => {
    const big = "x".repeat((1 << 20) + 1);
    const declared = answering(() => new Response(big, { headers: { "content-length": String(big.length) } }));
    await expect(declared.call("/cgi-bin/menu/get")).rejects.toThrow("too large");
    const streamed = answering(() => new Response(new Blob([big]).stream()));
    await expect(streamed.call("/cgi-bin/menu/get")).rejects.toThrow("too large");
    const fits = answering(() => Response.json({ pad: "x".repeat((1 << 20) - 20) }));
    expect(await fits.call("/cgi-bin/menu/get")).toHaveProperty("pad");
    for (const k of [declared, streamed, fits]) k.stop();
  });
  test("a network failure's message never carries the access token", async () => {
    // A fetch whose error names the URL, as some do: the URL carries the token.
    const k = answering(() => {
      throw new Error(`could not connect to ${fake.url}/cgi-bin/menu/get?access_token=${current}`);
    });
    let current = (await k.token()).token;
    const err = (await k.call("/cgi-bin/menu/get").catch((e) => e)) as Error;
    expect(err.message).toStartWith("the platform could not be reached: could not connect to");
    expect(err.message).toContain("access_token=…");
    expect(err.message).not.toContain(current);
    expect(JSON.stringify(k.status)).not.toContain(current);
    current = "";
    k.stop();
  });
});

describe("odd token answers and the timer (the platform is asked at most once a minute)", () => {
  /** A keeper whose stable_token requests get `answer` (counted); other calls go to the fake. */
  const tokenAnswer = (answer: () => Response) => {
    const asked = { n: 0 };
    const real = globalThis.fetch;
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      if (!String(url).includes("/cgi-bin/stable_token")) return real(url, init);
      asked.n++;
      return answer();
    }) as typeof globalThis.fetch;
    return { k: new PlatformClient({ api: fake.url, appid: APPID, secret: SECRET, clock, log: (m) => logs.push(m), fetch }), asked };
  };
  // Claims a timer cannot wait for (2³¹ ms is 24.8 days), the documented life's edge just past, and no usable claim at all.
  const claims: [string, unknown][] = [
    ["1e308", 1e308],
    ["3,000,000 s (past a timer's 2³¹ ms)", 3_000_000],
    ["7,201 s (just past the documented 7,200)", 7201],
    ["0", 0],
    ["-5", -5],
    ["missing", undefined],
    ['"7200" (text)', "7200"],
  ];
  for (const [name, claim] of claims)
    test(`expires_in ${name}: the token is taken for at most 7,200 s, health says the answer was odd, and the timer does not spin`, async () => {
      const { k, asked } = tokenAnswer(() => Response.json({ access_token: "tok-odd", ...(claim === undefined ? {} : { expires_in: claim }) }));
      const t = await k.token();
      expect(t.token).toBe("tok-odd");
      expect(t.expiresInS).toBeLessThanOrEqual(7200);
      expect(t.expiresInS).toBeGreaterThan(7000);
      expect(k.status).toMatchObject({ link: "ok", odd: expect.stringContaining("expires_in was") });
      // Real time passes: a timer that fires at once (2³¹ ms and above) or every second would ask again.
      await Bun.sleep(300);
      for (let i = 0; i < 20; i++) await k.token();
      expect(asked.n).toBe(1);
      k.stop();
    });
  test("a claim within the documented life is believed and not called odd", async () => {
    const { k } = tokenAnswer(() => Response.json({ access_token: "tok-short", expires_in: 7200 }));
    expect((await k.token()).expiresInS).toBe(7200);
    expect(k.status.odd).toBeUndefined();
    k.stop();
  });
  test("a short-lived token is asked for again at most once a minute, however often it is wanted", async () => {
    const { k, asked } = tokenAnswer(() => Response.json({ access_token: `tok-${Date.now()}`, expires_in: 120 }));
    await k.token();
    for (let i = 0; i < 5; i++) {
      age(10_000);
      await k.token();
    }
    expect(asked.n).toBe(1);
    age(10_001);
    await k.token();
    expect(asked.n).toBe(2);
    k.stop();
  });
  test("a platform that cannot be reached is asked again after a minute, not by every caller", async () => {
    const { k, asked } = tokenAnswer(() => {
      throw new Error("connection refused");
    });
    for (let i = 0; i < 10; i++) await expect(k.token()).rejects.toThrow("could not be reached");
    expect(asked.n).toBe(1);
    age(59_000);
    await expect(k.token()).rejects.toThrow("could not be reached");
    expect(asked.n).toBe(1);
    age(1000);
    await expect(k.token()).rejects.toThrow("could not be reached");
    expect(asked.n).toBe(2);
    k.stop();
  });
  const refusals: [string, () => Response, string][] = [
    ["an empty access_token", () => Response.json({ access_token: "", expires_in: 7200 }), "access_token is empty"],
    ["a token in an answer that is not HTTP 200", () => Response.json({ access_token: "tok-500", expires_in: 7200 }, { status: 500 }), "HTTP 500 with a token, which is not taken"],
    ['errcode "abc"', () => Response.json({ errcode: "abc", errmsg: "odd" }), 'errcode that is not a number ("abc")'],
    ["an errcode beside a token", () => Response.json({ errcode: 40164, errmsg: "invalid ip", access_token: "tok-x", expires_in: 7200 }), "invalid ip"],
  ];
  for (const [name, answer, reason] of refusals)
    test(`${name}: refused, with the reason in health`, async () => {
      const { k } = tokenAnswer(answer);
      await expect(k.token()).rejects.toThrow(reason);
      expect(k.status).toMatchObject({ link: "error", message: expect.stringContaining(reason) });
      expect(JSON.stringify(k.status)).not.toContain("[object Object]");
      k.stop();
    });
  test("a wall clock stepped back by hours changes neither the token's life nor when the platform is asked", async () => {
    const { k, asked } = tokenAnswer(() => Response.json({ access_token: "tok-step", expires_in: 7200 }));
    await k.token();
    clock.set(clock.now() - 3 * 3600_000);
    expect((await k.token()).expiresInS).toBe(7200);
    clock.set(clock.now() + 6 * 3600_000);
    expect((await k.token()).expiresInS).toBe(7200);
    expect(asked.n).toBe(1);
    k.stop();
  });
});

describe("the token route and the token scope", () => {
  const TOKEN_KEY = { appkey: "tk1", secret: "token-secret-0123456789", scope: "token" as const };
  test("a token key gets the token and nothing else; a read key may not; admin may; without --wx-secret 503", async () => {
    const platform = keeper();
    const { KeyRing } = await import("../../src/store/keys.ts");
    const t = await testApp({ platform, keys: new KeyRing(null, [ADMIN, READER, TOKEN_KEY]), clock });
    try {
      clock.advance(10_000);
      const get = async (path: string, key: typeof ADMIN) => {
        const res = await t.handle(signedRequest("GET", path, { nowMs: clock.now(), key }));
        return { status: res.status, ...(await body(res)) };
      };
      const byToken = await get("/api/cli/token", TOKEN_KEY);
      expect(byToken.status).toBe(200);
      expect(byToken.data.access_token).toStartWith(`tok-${APPID}-`);
      expect(byToken.data.expires_in).toBeGreaterThan(7000);
      expect((await get("/api/cli", TOKEN_KEY)).error.code).toBe(CODE.forbidden);
      expect((await get("/api/cli/token", READER)).error.code).toBe(CODE.forbidden);
      expect((await get("/api/cli/token", ADMIN)).data.access_token).toBe(byToken.data.access_token);
      expect((await get("/api/cli", ADMIN)).data.platform).toMatchObject({ link: "ok" });
    } finally {
      t.close();
      platform.stop();
    }
    const bare = await testApp();
    try {
      bare.clock.advance(10_000);
      const res = await bare.handle(signedRequest("GET", "/api/cli/token", { nowMs: bare.clock.now() }));
      expect((await body(res)).error.code).toBe(CODE.platform_not_configured);
    } finally {
      bare.close();
    }
  });
});

test("through the compiled binary: serve --wx-secret --wx-api, then replyd token and replyd health", async () => {
  buildIfMissing();
  const tmp = tempDir();
  const cleanups: Cleanups = [tmp.cleanup];
  const env = { PATH: process.env.PATH ?? "", REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret };
  try {
    const server = await spawnServer(["--data", join(tmp.dir, "d"), "--host", "127.0.0.1", "--port", "0", "--wx-appid", APPID, "--wx-secret", SECRET, "--wx-api", fake.url], { cwd: tmp.dir, cleanups, env, stopWith: "SIGKILL" });
    const run = async (...args: string[]) => {
      const p = Bun.spawn([BIN, ...args], { env: { ...env, REPLYD_URL: server.url }, stdout: "pipe", stderr: "pipe" });
      return { code: await p.exited, out: await new Response(p.stdout).text() };
    };
    const tok = await run("token");
    expect(tok.code).toBe(0);
    expect(tok.out.trim()).toStartWith(`tok-${APPID}-`);
    const health = await run("health", "--json");
    expect(JSON.parse(health.out).platform.link).toBe("ok");
    // The AppSecret appears nowhere in what the server printed.
    await server.stop();
    expect(server.out() + server.err()).not.toContain(SECRET);
  } finally {
    await runCleanups(cleanups);
  }
});
