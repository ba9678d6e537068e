/**
 * A local fake of the platform's HTTP API, built from its documentation (getStableAccessToken and
 * the error codes; the menu and customer-service endpoints come with the rest of issue 13):
 *
 * - POST /cgi-bin/stable_token, JSON {grant_type: "client_credential", appid, secret, force_refresh}:
 *   {access_token, expires_in} — in normal mode the current token, renewed in its last 5 minutes; a
 *   forced refresh makes a new one and the old one invalid at once. 40013 for a wrong appid, 40125 for
 *   a wrong secret, 40002 for another grant_type, 40164 when the caller's IP is not whitelisted.
 * - GET /cgi-bin/get_current_selfmenu_info?access_token=: an API call that checks the token
 *   (40001 for a token that is not the current one, 42001 for an expired one).
 *
 * Time is the fake's own clock (`now`), so tests can age tokens without sleeping.
 */
export interface FakePlatform {
  url: string;
  /** Calls to stable_token, by mode. */
  calls: { normal: number; forced: number; api: number };
  /** Makes the current token invalid, as another system's forced refresh would. */
  invalidate(): void;
  /** Moves the fake's clock. */
  advance(ms: number): void;
  /** Refuse every caller with 40164 (this server's IP is not whitelisted). */
  whitelist(ok: boolean): void;
  stop(): void;
}

export function startFakePlatform(appid: string, secret: string, expiresInS = 7200): FakePlatform {
  let now = Date.now();
  let serial = 0;
  let current: { token: string; expiresAt: number } | null = null;
  let whitelisted = true;
  const calls = { normal: 0, forced: 0, api: 0 };
  const issue = () => (current = { token: `tok-${appid}-${++serial}-${crypto.randomUUID().slice(0, 8)}`, expiresAt: now + expiresInS * 1000 });
  const json = (body: unknown) => Response.json(body);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (!whitelisted) return json({ errcode: 40164, errmsg: "invalid ip 127.0.0.1, not in whitelist" });
      if (url.pathname === "/cgi-bin/stable_token") {
        if (req.method !== "POST") return json({ errcode: 43002, errmsg: "require POST method" });
        let b: { grant_type?: unknown; appid?: unknown; secret?: unknown; force_refresh?: unknown };
        try {
          b = (await req.json()) as typeof b;
        } catch {
          return json({ errcode: 47001, errmsg: "data format error" });
        }
        if (b.grant_type !== "client_credential") return json({ errcode: 40002, errmsg: "invalid grant_type" });
        if (b.appid !== appid) return json({ errcode: 40013, errmsg: "invalid appid" });
        if (b.secret !== secret) return json({ errcode: 40125, errmsg: "invalid appsecret" });
        if (b.force_refresh === true) {
          calls.forced++;
          issue();
        } else {
          calls.normal++;
          if (!current || current.expiresAt - now <= 5 * 60_000) issue();
        }
        const c = current as { token: string; expiresAt: number };
        return json({ access_token: c.token, expires_in: Math.floor((c.expiresAt - now) / 1000) });
      }
      if (url.pathname === "/cgi-bin/get_current_selfmenu_info") {
        calls.api++;
        const token = url.searchParams.get("access_token");
        if (!current || token !== current.token) return json({ errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" });
        if (current.expiresAt <= now) return json({ errcode: 42001, errmsg: "access_token expired" });
        return json({ is_menu_open: 0 });
      }
      return json({ errcode: 40066, errmsg: "invalid url" });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    invalidate: () => void issue(),
    advance: (ms) => void (now += ms),
    whitelist: (ok) => void (whitelisted = ok),
    stop: () => server.stop(true),
  };
}
