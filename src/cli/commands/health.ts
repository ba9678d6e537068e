import { formatBytes } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { defineCommand } from "../command.ts";

type Down = { state: string; since?: string; error?: string };

interface Cluster {
  instance?: { id: string; host: string; pid: number };
  instances_seen?: number;
  others?: { id: string; host: string; seen_ms_ago: number }[];
  redis?: Down & { at?: string; last_refusal?: { at: string; error: string } };
  dedupe?: string;
  answered_alone?: number;
  conversations_alone?: number;
  cache_lag?: { last_ms: number | null; max_ms_last_minute: number | null; notices: number };
}

interface Health {
  status: string;
  store?: string;
  database?: Down;
  cluster?: Cluster;
  account?: string;
  callback?: string;
  callback_configured?: boolean;
  /** 0.2.29. */
  callback_encryption?: "plaintext" | "safe" | "compatible";
  message_log?: { unwritten: number; dropped: number };
  texts_default?: string[];
  /** not_found, media: unwritten, so followers get the operator's fallback text for them. */
  texts_as_fallback?: string[];
  version: string;
  uptime_s: number;
  server_time: string;
  counts: { articles_live: number; articles_deleted: number; tags: number; rules: number; texts: number; synonyms?: number };
  rule_warnings?: string[];
  tag_warnings?: string[];
  /** Numbers the welcome or help text tells followers to send that no article has. */
  text_warnings?: string[];
  db_bytes: number | null;
  search_index: string;
  passage_index?: { state: string; articles: number; passages: number };
  newest_backup: { id: string; created_at: string; size: number } | null;
  key: { appkey: string; scope: string; source?: "stored" | "environment" };
  environment_key?: string | null;
  search?: { queued: number; busy: number; late: number };
  regex_rules_disabled?: { pattern: string; timeouts: number; since: string }[];
  platform?: { link: string; errcode?: number; message?: string; advice?: string };
  menu?: { updated_at: string; pushed_at: string | null } | null;
  generated_answers?: {
    endpoint: string;
    model?: string;
    calls?: number;
    in_flight?: number;
    delivered?: Record<string, number>;
    failed?: Record<string, number>;
    refused?: Record<string, number>;
    capped?: Record<string, number>;
    tokens?: { prompt: number; completion: number; unreported: number };
    endpoint_now?: { state: "up" | "down" | "key_refused"; detail: string; checked_at: string };
    caps?: { per_follower_hour: number; per_minute: number; daily: number; concurrency: number; used_24h?: number; used_minute?: number; in_flight?: number; used?: string };
    customer_service?: string;
  };
}

const sum = (o: Record<string, number> | undefined) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);
type CapsShown = NonNullable<NonNullable<Health["generated_answers"]>["caps"]>;
const capUse = (c: CapsShown | undefined) =>
  !c ? "" : c.used !== undefined ? `use ${c.used}` : `${c.used_minute}/${c.per_minute} in the last minute, ${c.used_24h}/${c.daily} in 24 hours, ${c.in_flight}/${c.concurrency} in flight`;
const cappedBy = (o: Record<string, number> | undefined) => {
  const by = Object.entries(o ?? {}).filter(([, n]) => n > 0);
  return by.length ? `: ${by.map(([k, n]) => `${n} ${k}`).join(", ")}` : "";
};
/** The model's line: where, how many calls and what became of them, tokens, the caps. */
function modelLines(g: NonNullable<Health["generated_answers"]>): string[] {
  if (!g.model) return [`model          ${g.endpoint}`];
  const d = g.delivered ?? {};
  return [
    `model          ${g.model} at ${g.endpoint}: ${g.calls ?? 0} calls since start (${d.reply ?? 0} answered, ${d.customer_service ?? 0} followed up, ${d.pending ?? 0} kept for the next message (${d.next_message ?? 0} sent so), ${d.ask ?? 0} for ask --generate; ${sum(g.failed)} failed, ${sum(g.refused)} refused by the checks)`,
    ...(g.endpoint_now && g.endpoint_now.state !== "up" ? [`               ENDPOINT ${g.endpoint_now.state === "down" ? "DOWN" : "REFUSES THE KEY"} now: ${g.endpoint_now.detail} (${g.endpoint_now.checked_at}); followers get the retrieval reply`] : []),
    `               tokens ${g.tokens?.prompt ?? 0} in, ${g.tokens?.completion ?? 0} out`,
    `               caps ${g.caps?.per_follower_hour} per follower an hour; ${capUse(g.caps)} (${sum(g.capped)} capped${cappedBy(g.capped)})`,
    ...(g.customer_service && g.customer_service !== "ok" ? [`               customer-service messages: ${g.customer_service}`] : []),
  ];
}

const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const downFor = (d: Down) => `${d.state.toUpperCase()}${d.since ? ` since ${d.since}` : ""}${d.error ? ` (${d.error})` : ""}`;

/** Where the data is: the store, and on PostgreSQL whether this instance reaches it. */
function storeLines(h: Health): string[] {
  if (!h.store) return [];
  if (h.store !== "postgres") return [`store          ${h.store} (the data folder)`];
  return h.database?.state === "down"
    ? [`DATABASE       PostgreSQL ${downFor(h.database)}: followers are answered from this instance's copy, their messages wait in memory; admin requests other than health are refused once the keys could not be read for 5 s, until it answers`]
    : ["store          postgres (reached)"];
}

/** One of a cluster: this instance, the others, Redis and what falls back while it is away. */
function clusterLines(c: Cluster): string[] {
  const others = (c.others ?? []).map((o) => `${o.host} (${Math.round(o.seen_ms_ago / 1000)} s ago)`);
  const lag = c.cache_lag;
  return [
    `cluster        ${counted(c.instances_seen ?? 1, "instance")} seen: this one ${c.instance?.host ?? "?"} (pid ${c.instance?.pid ?? "?"})${others.length ? `; ${others.join(", ")}` : ""}`,
    c.redis?.state === "up"
      ? `redis          up at ${c.redis.at ?? "?"}`
      : `REDIS          ${downFor(c.redis ?? { state: "unknown" })}: admin requests other than health are refused; each instance answers followers alone`,
    ...(c.redis?.last_refusal && c.redis.state === "up" ? [`               last refusal ${c.redis.last_refusal.at}: ${c.redis.last_refusal.error}`] : []),
    ...(c.dedupe ? [`dedupe         ${c.dedupe}${c.answered_alone ? `; ${counted(c.answered_alone, "message")} answered by this instance alone` : ""}${c.conversations_alone ? `, ${counted(c.conversations_alone, "turn")} read or kept alone` : ""}`] : []),
    ...(lag ? [`changes seen   ${counted(lag.notices, "notice")} from other instances${lag.last_ms !== null ? `, last ${lag.last_ms} ms after the write, at most ${lag.max_ms_last_minute} ms in the last minute` : ""}`] : []),
  ];
}

const duration = (s: number) =>
  s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;

/** The console's 消息加解密方式 each callback_encryption takes. */
const ENCRYPTION = {
  plaintext: "plaintext messages: the console's 明文模式 (no wx-aeskey)",
  safe: "encrypted messages only: the console's 安全模式",
  compatible: "plaintext and encrypted: the console's 兼容模式",
} as const;

export async function health(c: CommandContext): Promise<void> {
  const client = c.client();
  const t0 = performance.now();
  const h = await client.call<Health>({ method: "GET", path: "/api/cli" });
  const ms = performance.now() - t0;
  c.print({ ...h, profile: client.config.profile ?? null }, () =>
    [
      `${h.status} — replyd ${h.version} at ${client.config.url} (${ms.toFixed(0)} ms)${client.config.profile ? `, profile ${client.config.profile}` : ""}`,
      ...(h.account && h.account !== "default" ? [`account        ${h.account}`] : []),
      ...storeLines(h),
      ...(h.cluster ? clusterLines(h.cluster) : []),
      ...(h.callback_configured === false
        ? [`CALLBACK       no wx-token: ${h.callback ?? "the callback"} answers 503 until one is set (--wx-token, or the account's wx-token in the config file)`]
        : h.callback_configured
          ? [`callback       ${h.callback ?? "/wechat"} ready (wx-token set${h.callback_encryption ? `; ${ENCRYPTION[h.callback_encryption]}` : ""}): give the platform's console this server's address with this path`]
          : []),
      `uptime         ${duration(h.uptime_s)}`,
      `server time    ${h.server_time}`,
      `articles       ${h.counts.articles_live} live, ${h.counts.articles_deleted} deleted`,
      `tag descriptions / rules / texts  ${h.counts.tags} / ${h.counts.rules} / ${h.counts.texts}`,
      // Some set, some not: the account speaks two languages to its followers.
      ...(h.texts_as_fallback?.length
        ? [`texts          ${h.texts_as_fallback.join(", ")} unset: followers get your fallback text ${h.texts_as_fallback.map((k) => (k === "media" ? "for a photo, a location or a link" : 'for a search ("s …") that finds nothing and "换一个" with nothing before')).join(", and ")} (import a document of texts to word ${h.texts_as_fallback.length === 1 ? "it" : "them"}: wechat.md §3)`]
        : []),
      ...(h.texts_default?.length && h.counts.texts ? [`texts          ${h.texts_default.join(", ")} still replyd's default${h.texts_default.length === 1 ? "" : "s"} (English, Chinese to a follower writing it; import a document of texts to set ${h.texts_default.length === 1 ? "it" : "them"})`] : []),
      // None set: every follower is welcomed, helped and told "I did not understand" in replyd's words (a letting agency's walkthrough had looked for them here).
      ...(h.texts_default?.length && !h.counts.texts ? ["texts          all replyd's defaults (English, Chinese to a follower writing it): your account's own welcome, help and fallback — whom to contact, when — are a document of texts away (wechat.md §3)"] : []),
      ...(h.rule_warnings ?? []).map((w) => `RULE           ${w}`),
      ...(h.tag_warnings ?? []).map((w) => `TAG            ${w}`),
      ...(h.text_warnings ?? []).map((w) => `TEXT           ${w}`),
      ...(h.counts.synonyms ? [`synonyms       ${counted(h.counts.synonyms, "group")}`] : []),
      `database       ${h.db_bytes === null ? "size unknown (the database cannot be reached)" : formatBytes(h.db_bytes)}`,
      ...(h.message_log ? [`message log    ${h.message_log.unwritten} waiting to be written${h.message_log.dropped ? `, ${h.message_log.dropped} NOT LOGGED (the queue was full)` : ""}`] : []),
      `search index   ${h.search_index}`,
      ...(h.passage_index ? [`passage index  ${h.passage_index.state}: ${counted(h.passage_index.articles, "article")}, ${counted(h.passage_index.passages, "passage")}`] : []),
      `newest backup  ${h.newest_backup ? `${h.newest_backup.id} (${formatBytes(h.newest_backup.size)})` : h.database?.state === "down" ? "unknown (the database cannot be reached)" : "none"}`,
      `key            ${h.key.appkey} (${h.key.scope}${h.key.source === "environment" ? ", from the server's environment" : ""})`,
      ...(h.environment_key ? [`environment key ${h.environment_key}: the server took it from its environment (REPLYD_APPKEY); it works until the server restarts without it (replyd keys rm cannot revoke it)`] : []),
      ...(h.platform?.link === "not configured"
        ? ["platform       not configured: no AppSecret (--wx-secret); the callback answers followers without it, replyd reply, token and menu push need it"]
        : h.platform ? [`platform       ${h.platform.link}${h.platform.errcode !== undefined ? ` (${h.platform.errcode}: ${h.platform.message ?? ""})` : h.platform.message ? ` (${h.platform.message})` : ""}${h.platform.advice ? ` — ${h.platform.advice}` : ""}`] : []),
      ...(h.menu !== undefined ? [`menu           ${h.menu ? `stored ${h.menu.updated_at}, ${h.menu.pushed_at ? `pushed ${h.menu.pushed_at}` : "NOT pushed since it changed (replyd menu push)"}` : "none stored"}`] : []),
      ...(h.generated_answers ? modelLines(h.generated_answers) : []),
      ...(h.search && (h.search.busy || h.search.late) ? [`searches        ${h.search.busy} answered busy, ${h.search.late} past the deadline since start`] : []),
      ...(h.regex_rules_disabled ?? []).map((d) => `DISABLED rule   /${d.pattern}/ timed out ${d.timeouts} times (since ${d.since}); write the rules again to retry it`),
    ].join("\n"),
  );
}

export const healthCommand = defineCommand({
  usage: "health",
  summary: "check the server: status, counts, newest backup",
  description: "Checks the server with a signed request and prints what it reports: its version and store, counts, the search index, the message log, the platform link, the menu, the newest backup, and in a cluster its instances and Redis. Exits non-zero when the server cannot be reached or refuses the key.",
  examples: ["replyd health", "replyd health --json"],
  run: health,
});
