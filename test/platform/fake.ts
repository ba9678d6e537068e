/**
 * A local fake of the platform's HTTP API, built from its documentation (getStableAccessToken,
 * the custom menu, customer-service messages, the global error codes):
 *
 * - POST /cgi-bin/stable_token, JSON {grant_type: "client_credential", appid, secret, force_refresh}:
 *   {access_token, expires_in} — in normal mode the current token, renewed in its last 5 minutes; a
 *   forced refresh makes a new one and the old one invalid at once. 40013 for a wrong appid, 40125 for
 *   a wrong secret, 40002 for another grant_type, 40164 when the caller's IP is not whitelisted.
 * - Every other call checks ?access_token= (40001 not the current one, 42001 expired, 41001 missing).
 * - POST /cgi-bin/menu/create {button: [...]}: the documented checks (40016 top buttons 1–3, 40023
 *   sub-buttons 1–5, 40018/40025 name bytes, 40017/40024 type, 40019/40026 key bytes, 40027 url,
 *   40055/40054 url domain not allowed), then it becomes the live menu.
 * - GET /cgi-bin/menu/get: {menu: {button, menuid}, conditionalmenu} for a menu made through the
 *   API; 46003 when the live menu was made in the console or there is none.
 * - GET /cgi-bin/menu/delete: removes the live menu (conditional menus too).
 * - GET /cgi-bin/get_current_selfmenu_info: {is_menu_open, selfmenu_info: {button}} with
 *   sub-buttons as {list: [...]}, for API menus and console menus alike.
 * - POST /cgi-bin/message/custom/send {touser, msgtype: text|news, ...}: 40003 unknown openid,
 *   43004 not following, 45015 more than 48 h since the follower's last interaction, 45047 the
 *   replies per interaction spent (5), 48001 without the permission, 44004 empty text, 45008 news
 *   with other than 1 article.
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
  /** The live menu as menu/create took it (null: none, or a console menu). */
  readonly menu: unknown;
  /** A menu made in the console: get_current_selfmenu_info answers it, menu/get does not. */
  consoleMenu(selfmenuInfo: { button: unknown[] } | null): void;
  /** Conditional menus the account has besides the default one. */
  conditional(n: number): void;
  /** Refuse menu urls on this host (40055 / 40054: not a domain the account may link to). */
  refuseDomain(host: string): void;
  /** The next API call takes effect at once, but its answer comes `ms` later (a slow network). */
  slowAnswer(ms: number): void;
  /** The account lacks the permission for this API path (48001). */
  deny(path: string): void;
  /** A follower interacts (follows, writes): the reply window opens and the count starts again. */
  interact(openid: string): void;
  /** The follower unfollows. */
  unfollow(openid: string): void;
  /** Customer-service messages the platform accepted, in order. */
  readonly sent: { touser: string; msgtype: string; text?: { content: string }; news?: { articles: unknown[] } }[];
  stop(): void;
}

const bytes = (s: unknown) => Buffer.byteLength(String(s ?? ""), "utf8");
const TYPES: Record<string, string[]> = {
  click: ["key"], view: ["url"], scancode_push: ["key"], scancode_waitmsg: ["key"], pic_sysphoto: ["key"], pic_photo_or_album: ["key"],
  pic_weixin: ["key"], location_select: ["key"], media_id: ["media_id"], article_id: ["article_id"], article_view_limited: ["article_id"],
  miniprogram: ["url", "appid", "pagepath"],
};
type Btn = Record<string, unknown> & { sub_button?: Btn[] };

/** menu/create's documented checks, in the platform's order: the first failure is the answer. */
function checkMenu(body: { button?: unknown }, refused: Set<string>): { errcode: number; errmsg: string } | null {
  const top = body.button;
  if (!Array.isArray(top) || top.length < 1 || top.length > 3) return { errcode: 40016, errmsg: "invalid button size" };
  for (const b of top as Btn[]) {
    if (bytes(b.name) < 1 || bytes(b.name) > 16) return { errcode: 40018, errmsg: "invalid button name size" };
    const subs = Array.isArray(b.sub_button) ? b.sub_button : [];
    if (subs.length) {
      if (subs.length > 5) return { errcode: 40023, errmsg: "invalid sub button size" };
      for (const s of subs) {
        if (bytes(s.name) < 1 || bytes(s.name) > 60) return { errcode: 40025, errmsg: "invalid sub button name size" };
        const bad = checkAction(s, refused, true);
        if (bad) return bad;
      }
      continue;
    }
    const bad = checkAction(b, refused, false);
    if (bad) return bad;
  }
  return null;
}

function checkAction(b: Btn, refused: Set<string>, sub: boolean): { errcode: number; errmsg: string } | null {
  const needs = TYPES[String(b.type)];
  if (!needs) return sub ? { errcode: 40024, errmsg: "invalid sub button type" } : { errcode: 40017, errmsg: "invalid button type" };
  if (needs.includes("key") && (bytes(b.key) < 1 || bytes(b.key) > 128)) return sub ? { errcode: 40026, errmsg: "invalid sub button key size" } : { errcode: 40019, errmsg: "invalid button key size" };
  if (needs.includes("url")) {
    let host = "";
    try {
      host = new URL(String(b.url)).host;
    } catch {
      return { errcode: 40027, errmsg: "invalid sub button url" };
    }
    if (refused.has(host)) return sub ? { errcode: 40054, errmsg: "invalid sub button url domain" } : { errcode: 40055, errmsg: "invalid button url domain" };
  }
  return null;
}

/** get_current_selfmenu_info's shape of an API menu: sub-buttons as {list}. */
const selfmenuOf = (menu: { button: Btn[] }) => ({
  button: menu.button.map((b) => (b.sub_button?.length ? { name: b.name, sub_button: { list: b.sub_button.map((s) => ({ ...s })) } } : { ...b })),
});

export function startFakePlatform(appid: string, secret: string, expiresInS = 7200): FakePlatform {
  let now = Date.now();
  let serial = 0;
  let current: { token: string; expiresAt: number } | null = null;
  let whitelisted = true;
  const calls = { normal: 0, forced: 0, api: 0 };
  let apiMenu: { button: Btn[] } | null = null;
  let console_: { button: unknown[] } | null = null;
  let conditional = 0;
  const refusedDomains = new Set<string>();
  const denied = new Set<string>();
  const followers = new Map<string, { following: boolean; at: number; count: number }>();
  const sent: FakePlatform["sent"] = [];
  const REPLY_WINDOW_MS = 48 * 3_600_000;
  let slow = 0;
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
      // Every other API: the token first, as the platform checks it.
      calls.api++;
      if (slow) {
        const ms = slow;
        slow = 0;
        const answer = await api(req, url);
        await Bun.sleep(ms);
        return answer;
      }
      return api(req, url);
    },
  });
  async function api(req: Request, url: URL): Promise<Response> {
    const token = url.searchParams.get("access_token");
    if (!token) return json({ errcode: 41001, errmsg: "access_token missing" });
    if (!current || token !== current.token) return json({ errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" });
    if (current.expiresAt <= now) return json({ errcode: 42001, errmsg: "access_token expired" });
    if (denied.has(url.pathname)) return json({ errcode: 48001, errmsg: "api unauthorized" });
    const post = async () => {
      if (req.method !== "POST") return { errcode: 43002, errmsg: "require POST method" };
      try {
        return (await req.json()) as Record<string, unknown>;
      } catch {
        return { errcode: 47001, errmsg: "data format error" };
      }
    };
    switch (url.pathname) {
      case "/cgi-bin/get_current_selfmenu_info":
        if (apiMenu) return json({ is_menu_open: 1, selfmenu_info: selfmenuOf(apiMenu) });
        if (console_) return json({ is_menu_open: 1, selfmenu_info: console_ });
        return json({ is_menu_open: 0 });
      case "/cgi-bin/menu/create": {
        const b = await post();
        if ("errcode" in b) return json(b);
        const bad = checkMenu(b, refusedDomains);
        if (bad) return json(bad);
        apiMenu = structuredClone(b) as { button: Btn[] };
        console_ = null;
        return json({ errcode: 0, errmsg: "ok" });
      }
      case "/cgi-bin/menu/get":
        if (!apiMenu) return json({ errcode: 46003, errmsg: "menu no exist" });
        return json({
          menu: { button: apiMenu.button.map((b) => ({ ...b, sub_button: (b.sub_button ?? []).map((s) => ({ ...s, sub_button: [] })) })), menuid: 208396938 },
          ...(conditional ? { conditionalmenu: Array.from({ length: conditional }, (_, i) => ({ button: [], matchrule: { tag_id: String(i) }, menuid: 208396990 + i })) } : {}),
        });
      case "/cgi-bin/menu/delete":
        apiMenu = null;
        console_ = null;
        conditional = 0;
        return json({ errcode: 0, errmsg: "ok" });
      case "/cgi-bin/message/custom/send": {
        const b = (await post()) as Record<string, unknown> & { touser?: unknown; msgtype?: unknown; text?: { content?: unknown }; news?: { articles?: unknown } };
        if ("errcode" in b) return json(b);
        const f = followers.get(String(b.touser));
        if (!f) return json({ errcode: 40003, errmsg: "invalid openid" });
        if (!f.following) return json({ errcode: 43004, errmsg: "require subscribe" });
        if (b.msgtype === "text" && (typeof b.text?.content !== "string" || !b.text.content)) return json({ errcode: 44004, errmsg: "empty content" });
        if (b.msgtype === "news" && (!Array.isArray(b.news?.articles) || b.news.articles.length !== 1)) return json({ errcode: 45008, errmsg: "article size out of limit" });
        if (b.msgtype !== "text" && b.msgtype !== "news") return json({ errcode: 40008, errmsg: "invalid message type" });
        if (now - f.at >= REPLY_WINDOW_MS) return json({ errcode: 45015, errmsg: "response out of time limit or subscription is canceled" });
        if (f.count >= 5) return json({ errcode: 45047, errmsg: "out of response count limit" });
        f.count++;
        sent.push(structuredClone(b) as FakePlatform["sent"][number]);
        return json({ errcode: 0, errmsg: "ok" });
      }
    }
    return json({ errcode: 40066, errmsg: "invalid url" });
  }
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    invalidate: () => void issue(),
    advance: (ms) => void (now += ms),
    whitelist: (ok) => void (whitelisted = ok),
    get menu() {
      return apiMenu;
    },
    consoleMenu: (info) => {
      console_ = info;
      apiMenu = null;
    },
    conditional: (n) => void (conditional = n),
    refuseDomain: (host) => void refusedDomains.add(host),
    deny: (path) => void denied.add(path),
    slowAnswer: (ms) => void (slow = ms),
    interact: (openid) => void followers.set(openid, { following: true, at: now, count: 0 }),
    unfollow: (openid) => {
      const f = followers.get(openid);
      if (f) f.following = false;
    },
    sent,
    stop: () => server.stop(true),
  };
}
