import { TokenKeeper } from "../../src/wechat/platform/token.ts";
import { fixedClock } from "../../src/base/clock.ts";
import { body, signedRequest, T0, testApp } from "../helpers.ts";
import { TOKEN } from "../wechat/helpers.ts";
import { startFakePlatform, type FakePlatform } from "./fake.ts";

export const APPID = "wx0123456789abcdef";
export const SECRET = "0123456789abcdef0123456789abcdef";

export type Harness = Awaited<ReturnType<typeof platformApp>>;

/** An app with the callback on, its platform API pointed at a fresh fake platform; both clocks move together. */
export async function platformApp() {
  const fake: FakePlatform = startFakePlatform(APPID, SECRET);
  const clock = fixedClock(T0);
  const keeper = (api = fake.url) => new TokenKeeper({ api, appid: APPID, secret: SECRET, clock, log: () => {} });
  let platform = keeper();
  const t = await testApp({ clock, wechat: { token: TOKEN }, platform });
  const h = {
    fake,
    t,
    get platform() {
      return platform;
    },
    /** Points the app at another fake platform. */
    async use(other: FakePlatform) {
      platform.stop();
      platform = keeper(other.url);
      await t.rebuild({ platform });
    },
    /** The app made again without the platform API (no --wx-secret). */
    withoutPlatform: () => t.rebuild({ platform: null }),
    age(ms: number) {
      t.clock.advance(ms);
      fake.advance(ms);
    },
    /** A signed admin request a second later, answered as {status, ok, data?, error?}. */
    async call(method: string, path: string, o: Parameters<typeof signedRequest>[2] = {}) {
      h.age(1000);
      const res = await t.handle(signedRequest(method, path, { nowMs: t.clock.now(), ...o }));
      return { status: res.status, ...(await body(res)) };
    },
    close() {
      platform.stop();
      t.close();
      fake.stop();
    },
  };
  return h;
}
