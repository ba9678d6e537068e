import { TokenKeeper } from "../../src/wechat/platform/token.ts";
import { body, signedRequest, testApp } from "../helpers.ts";
import { TOKEN } from "../wechat/helpers.ts";
import { startFakePlatform, type FakePlatform } from "./fake.ts";

export const APPID = "wx0123456789abcdef";
export const SECRET = "0123456789abcdef0123456789abcdef";

export type Harness = Awaited<ReturnType<typeof platformApp>>;

/** An app with the callback on, its platform API pointed at a fresh fake platform; both clocks move together. */
export async function platformApp() {
  const fake: FakePlatform = startFakePlatform(APPID, SECRET);
  const t = await testApp({ wechat: { token: TOKEN } });
  const keeper = (api = fake.url) => new TokenKeeper({ api, appid: APPID, secret: SECRET, clock: t.clock, log: () => {} });
  let platform = keeper();
  t.app.ctx.platform = platform;
  const h = {
    fake,
    t,
    get platform() {
      return platform;
    },
    /** Points the app at another fake platform. */
    use(other: FakePlatform) {
      platform.stop();
      platform = keeper(other.url);
      t.app.ctx.platform = platform;
    },
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
