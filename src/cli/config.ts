/**
 * Which server a command talks to and with which key: from the flags, the environment, or a
 * profile (profiles.ts). Read before any request is made; the client (client.ts) only uses it.
 */
import { ACCOUNT_NAME } from "../base/account-name.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";
import { chosenProfile } from "./profiles.ts";

export interface ClientConfig {
  url: string;
  appkey: string;
  secret: string;
  /** The profile any of them came from (profiles.ts); null when flags and the environment gave all. */
  profile?: string | null;
  /** The profile the key (appkey and secret) came from: a refused signature then names it rather than --secret. */
  secretFrom?: string;
  /** The account every request names (`account=`, signed): --account, REPLYD_ACCOUNT or the profile's. */
  account?: string;
  /**
   * The server's address from a profile, the key from a flag or the environment (`keyFrom`): a refused
   * key then says so — a bike share's operator, the old server's REPLYD_APPKEY still exported, had been
   * told only to check --appkey.
   */
  mixed?: { profile: string; keyFrom: string };
}

/**
 * The server and key a command uses: each of --url, --appkey and --secret from its flag, else
 * REPLYD_URL / REPLYD_APPKEY / REPLYD_SECRET, else the profile (profiles.ts: --profile, else
 * REPLYD_PROFILE, else the default one). The profiles are read only when a flag or variable is
 * missing or a profile is named.
 */
export function resolveConfig(
  flags: { url?: string | undefined; appkey?: string | undefined; secret?: string | undefined; profile?: string | undefined; account?: string | undefined },
  io: Pick<IO, "env" | "platform" | "home">,
): ClientConfig {
  const env = io.env;
  let account = flags.account ?? env.REPLYD_ACCOUNT;
  let url = flags.url ?? env.REPLYD_URL;
  let appkey = flags.appkey ?? env.REPLYD_APPKEY;
  let secret = flags.secret ?? env.REPLYD_SECRET;
  let profile: string | null = null;
  let secretFrom: string | undefined;
  let mixed: ClientConfig["mixed"];
  if (!url || !appkey || !secret || flags.profile !== undefined || env.REPLYD_PROFILE !== undefined) {
    const chosen = chosenProfile(io, flags.profile);
    if (chosen) {
      profile = chosen.name;
      // A profile's key signs for its own server only: sent elsewhere, a signed request could be replayed to it.
      const elsewhere = url !== undefined && checkUrl(url) !== checkUrl(chosen.profile.url);
      if (elsewhere && (!appkey || !secret))
        throw new CLIError(
          "profile_mismatch",
          `the profile "${chosen.name}" keeps a key for ${chosen.profile.url}, not for ${url}: give --appkey and --secret (REPLYD_APPKEY, REPLYD_SECRET) for ${url}, or use the profile's server`,
          2,
        );
      // The profile's key, both halves: a refused signature is then the profile's to mend.
      if (secret === undefined && appkey === undefined) secretFrom = chosen.name;
      if (url === undefined && appkey !== undefined) mixed = { profile: chosen.name, keyFrom: flags.appkey !== undefined ? "--appkey" : "REPLYD_APPKEY" };
      url ??= chosen.profile.url;
      appkey ??= chosen.profile.appkey;
      secret ??= chosen.profile.secret;
      // The profile's account goes with its key: not with another server's.
      if (!elsewhere) account ??= chosen.profile.account;
      // A profile named (on the command line, or by REPLYD_PROFILE) is meant whole: a REPLYD_ACCOUNT
      // left in the shell (keys add prints one to export) must not quietly turn it to another account.
      const named = flags.profile !== undefined ? "" : env.REPLYD_PROFILE !== undefined ? " (REPLYD_PROFILE)" : null;
      const fromEnvironment = flags.account === undefined && env.REPLYD_ACCOUNT !== undefined;
      if (named !== null && !elsewhere && fromEnvironment && chosen.profile.account !== undefined && chosen.profile.account !== account)
        throw new CLIError(
          "profile_mismatch",
          `the profile "${chosen.name}"${named} is for the account ${chosen.profile.account}, and REPLYD_ACCOUNT says ${account}: unset REPLYD_ACCOUNT, or give --account to choose one`,
          2,
        );
    }
  }
  const missing = [!url && "--url (REPLYD_URL)", !appkey && "--appkey (REPLYD_APPKEY)", !secret && "--secret (REPLYD_SECRET)"].filter(Boolean);
  if (missing.length) throw new CLIError("missing_config", `set ${missing.join(", ")}, or add a profile (replyd profile add NAME --url URL --appkey KEY); replyd serve prints the key on first start`, 2);
  if (account !== undefined && !ACCOUNT_NAME.test(account))
    throw new CLIError("usage", `--account (REPLYD_ACCOUNT) must be an account's name: 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit`, 2);
  return { url: checkUrl(url as string), appkey: appkey as string, secret: secret as string, profile, ...(secretFrom !== undefined ? { secretFrom } : {}), ...(account !== undefined ? { account } : {}), ...(mixed ? { mixed } : {}) };
}

/** A server's root address as the client takes it: http(s), without /api (the client adds /api/cli), no trailing slash. */
export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CLIError("bad_url", `--url must be an http(s) address like http://127.0.0.1:8080`, 2);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CLIError("bad_url", "--url must start with http:// or https://", 2);
  // The client adds /api/cli itself: a URL that already holds it reaches no route.
  if (/\/api(\/|$)/.test(parsed.pathname))
    throw new CLIError("bad_url", `--url is the server's root, like ${parsed.origin}: leave out ${parsed.pathname.replace(/\/+$/, "")} (the client adds /api/cli itself)`, 2);
  return url.replace(/\/+$/, "");
}

