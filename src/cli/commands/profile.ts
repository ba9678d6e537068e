/**
 * replyd profile add|ls|rm|use (docs/client.md "Profiles"): the servers an operator works with,
 * kept on the laptop (cli/profiles.ts). The secret is read from standard input — typed without
 * echo at a terminal, or piped — never taken as a flag, which every user of the machine sees in ps.
 */
import { ACCOUNT_NAME } from "../../base/account-name.ts";
import { CODE } from "../../base/errors.ts";
import { Client } from "../client.ts";
import { checkUrl } from "../config.ts";
import { RESPONSE_DEFAULTS } from "../verified-response.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { table } from "../table.ts";
import { PROFILE_NAME, profilesPath, readProfiles, writeProfiles, type Profile } from "../profiles.ts";

/**
 * The key asked of its server before it is kept (health, signed with it): one the server refuses is
 * not kept, so a mistyped secret is found now rather than at the next command; one whose signature
 * it took but whose reach is narrower than health (a token key, a key of one account named without
 * --account) is kept with what the server said; a server that does not answer (not started yet,
 * another network) leaves it kept, unchecked, with a warning.
 */
async function checkKey(c: CommandContext, name: string, p: Profile): Promise<void> {
  const client = new Client({ url: p.url, appkey: p.appkey, secret: p.secret, profile: name, ...(p.account !== undefined ? { account: p.account } : {}) }, c.io, {
    ...RESPONSE_DEFAULTS,
    timeoutMs: CHECK_MS,
  });
  try {
    await client.call({ method: "GET", path: "/api/cli" });
  } catch (e) {
    if (!(e instanceof CLIError)) throw e;
    if (WRONG_KEY.has(e.code)) {
      // Said in profile add's own terms: the server's message names --secret, which profile add does not take.
      const lockedFor = /locked out for \d+ s more/.exec(e.message)?.[0] ?? "locked out for a while";
      const why =
        e.code === CODE.bad_signature
          ? `the secret given is not appkey "${p.appkey}"'s`
          : e.code === CODE.unknown_appkey
            ? `it knows no appkey "${p.appkey}"`
            : `too many wrong secrets from this address: ${lockedFor}; the right secret is still accepted`;
      throw new CLIError("key_refused", `${p.url} refuses this key (${why}), so profile "${name}" was not kept; run replyd profile add again with the right one`);
    }
    if (e.code === CODE.account_required)
      return c.io.err(`replyd: the server knows this key; it serves several accounts: profile "${name}" is kept, and each command names one with --account (or keep one in the profile: profile add ${name} … --account NAME --force)`);
    if (NARROWER.has(e.code)) return c.io.err(`replyd: the server knows this key, but it may not read health (${e.message}); profile "${name}" is kept`);
    const why = e.code === "timeout" ? `no answer from ${p.url} within ${CHECK_MS / 1000} s` : e.message;
    c.io.err(`replyd: warning: the key was not checked (${why}); profile "${name}" is kept as given`);
  }
}

/** A server slower than this to answer health is taken as not answering (the profile is kept, unchecked). */
const CHECK_MS = 10_000;

/** The signature not taken: the secret or the appkey is wrong (too_many_failures: this address locked out for failing so). */
const WRONG_KEY = new Set<string>([CODE.bad_signature, CODE.unknown_appkey, CODE.too_many_failures]);
/** The signature taken, the request not: the key is right and reaches less than health. */
const NARROWER = new Set<string>([CODE.forbidden, CODE.account_required]);

async function profile(c: CommandContext): Promise<void> {
  const [action = "ls", name, ...extra] = c.args;
  if (extra.length) throw usage(`profile ${action} takes one name ("${extra.join(" ")}" is left over)`);
  const f = readProfiles(c.io);
  if (action === "ls") {
    const names = Object.keys(f.profiles).sort();
    return c.print(
      { default: f.default, profiles: names.map((n) => ({ name: n, url: f.profiles[n]?.url, appkey: f.profiles[n]?.appkey, account: f.profiles[n]?.account ?? null, default: n === f.default })) },
      () =>
        names.length
          ? table(names.map((n) => [`${n === f.default ? "*" : " "} ${n}`, f.profiles[n]?.url ?? "", f.profiles[n]?.appkey ?? "", f.profiles[n]?.account !== undefined ? `account ${f.profiles[n]?.account}` : ""]), [{}, { max: 200 }, { max: 80 }]).map((l) => l.trimEnd()).join("\n")
          : `no profiles in ${profilesPath(c.io)}`,
    );
  }
  if (!name) throw usage(`profile ${action} needs a name: replyd profile ${action} NAME`);
  if (action === "add") {
    if (!PROFILE_NAME.test(name)) throw usage("a profile's name is letters, digits, _ . and -, starting with a letter or digit");
    const account = c.str("--account");
    if (account !== undefined && !ACCOUNT_NAME.test(account)) throw usage("--account must be an account's name: 1 to 32 lower-case letters, digits, - and _");
    const kept = Object.hasOwn(f.profiles, name) ? f.profiles[name] : undefined;
    if (kept && !c.flags.force) throw new CLIError("profile_exists", `a profile "${name}" is kept already; pass --force to replace it`, 2);
    // Only the account changed (a server moved to several accounts): the kept server and key stay, the secret is not asked again.
    const keep = kept !== undefined && account !== undefined && c.str("--url") === undefined && c.str("--appkey") === undefined;
    const url = keep ? kept.url : c.str("--url");
    const appkey = keep ? kept.appkey : c.str("--appkey");
    if (!url || !appkey)
      throw usage(`profile add needs --url and --appkey; the secret is read from standard input${kept ? ` (to change only the account of "${name}": profile add ${name} --account NAME --force)` : ""}`);
    const secret = keep ? kept.secret : (await c.io.secret(`secret for ${appkey}: `)).trim();
    if (!secret) throw usage("no secret was read from standard input");
    f.profiles[name] = { url: checkUrl(url), appkey, secret, ...(account !== undefined ? { account } : {}) };
    await checkKey(c, name, f.profiles[name]);
    if (c.flags.default || f.default === null) f.default = name;
    const path = writeProfiles(c.io, f);
    return c.print({ name, url: f.profiles[name]?.url, appkey, account: account ?? null, default: f.default === name, path }, () => `kept profile "${name}" (${url}, ${appkey}${account !== undefined ? `, account ${account}` : ""})${f.default === name ? ", the default" : ""} in ${path}`);
  }
  if (!Object.hasOwn(f.profiles, name)) throw new CLIError("unknown_profile", `no profile "${name}"; known: ${Object.keys(f.profiles).join(", ") || "none"}`, 2);
  if (action === "rm") {
    delete f.profiles[name];
    const wasDefault = f.default === name;
    if (wasDefault) f.default = null;
    writeProfiles(c.io, f);
    return c.print({ removed: name, default: f.default }, () => `removed profile "${name}"${wasDefault ? "; there is no default profile now (replyd profile use NAME)" : ""}`);
  }
  if (action === "use") {
    f.default = name;
    writeProfiles(c.io, f);
    return c.print({ default: name }, () => `"${name}" is the default profile`);
  }
  throw usage(`profile ${action}: the actions are add, ls, rm and use`);
}

export const profileCommand = defineCommand({
  usage: "profile [action] [name]",
  summary: "keep the servers you work with: add, ls, rm, use",
  description:
    "Keeps servers and their keys on this machine, in the user's config folder (profiles.json, the owner's alone): add NAME --url URL --appkey KEY reads the secret from standard input; ls lists them (* the default); rm NAME; use NAME makes it the default. Any command takes --profile NAME or REPLYD_PROFILE, else the default; a flag or an environment variable still comes first.",
  examples: ["replyd profile add shop --url https://replyd.example.com --appkey rk_3f9a01c2d4e5", "replyd profile ls", "replyd profile use shop", "replyd profile rm staging"],
  options: [
    { flags: "--url <url>", help: "the server's address (with add)" },
    { flags: "--appkey <appkey>", help: "the key's id (with add); its secret is read from standard input" },
    { flags: "--account <name>", help: "the account its commands act on, on a server with several (with add)" },
    { flags: "--default", help: "make it the default profile (with add; the first one added is)" },
    { flags: "--force", help: "replace a profile kept under that name (with add; with --account alone, change only its account)" },
  ],
  local: true,
  refused: { "--secret": "profile add reads the secret from standard input (every user of this machine sees flags in ps): run it and type the secret, or pipe it in" },
  run: profile,
});
