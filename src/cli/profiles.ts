/**
 * Profiles on the operator's laptop (docs/client.md "Profiles"): named servers with their key, in
 * the user's config folder — `$XDG_CONFIG_HOME/replyd` (else `~/.config/replyd`) on Linux,
 * `~/Library/Application Support/replyd` on macOS, `%APPDATA%\replyd` on Windows — in
 * `profiles.json`, the owner's alone (0600; refused, with the chmod to run, when others may read
 * or write it, as keys.json is; Windows keeps %APPDATA% per user).
 *
 * A command takes each of the server's address, appkey and secret from its flag, else the
 * environment, else the profile (`--profile`, else `REPLYD_PROFILE`, else the default profile),
 * as gh and kubectl resolve theirs.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, openToOthers, PRIVATE_DIR } from "../fsutil.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";

export interface Profile {
  url: string;
  appkey: string;
  secret: string;
}

export interface ProfileFile {
  default: string | null;
  profiles: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The folder the client keeps its files in, as each system places a user's configuration. */
export function configDir(io: Pick<IO, "env" | "platform" | "home">): string {
  const { env, platform, home } = io;
  if (platform === "win32") return join(env.APPDATA || join(home, "AppData", "Roaming"), "replyd");
  if (platform === "darwin") return join(home, "Library", "Application Support", "replyd");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "replyd");
}

export const profilesPath = (io: Pick<IO, "env" | "platform" | "home">) => join(configDir(io), "profiles.json");

const bad = (message: string) => new CLIError("bad_profiles", message, 2);

/** The profiles as kept; none when the file does not exist. */
export function readProfiles(io: Pick<IO, "env" | "platform" | "home">): ProfileFile {
  const path = profilesPath(io);
  if (!existsSync(path)) return { default: null, profiles: Object.create(null) as Record<string, Profile> };
  if (io.platform !== "win32") {
    const exposed = openToOthers(path, statSync(path).mode);
    if (exposed) throw bad(`the profiles hold secrets and ${exposed}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw bad(`${path} is not JSON (${(e as Error).message}); fix it or remove it and add the profiles again`);
  }
  const f = v as Partial<ProfileFile>;
  if (!f || typeof f !== "object" || typeof f.profiles !== "object" || f.profiles === null) throw bad(`${path} holds no "profiles"`);
  for (const [name, p] of Object.entries(f.profiles))
    if (!p || typeof p.url !== "string" || typeof p.appkey !== "string" || typeof p.secret !== "string") throw bad(`${path}: profile "${name}" needs url, appkey and secret`);
  // A plain object's own names only: "toString" is no profile.
  const profiles: Record<string, Profile> = Object.create(null);
  for (const [name, p] of Object.entries(f.profiles)) profiles[name] = p;
  return { default: typeof f.default === "string" && Object.hasOwn(profiles, f.default) ? f.default : null, profiles };
}

export function writeProfiles(io: Pick<IO, "env" | "platform" | "home">, f: ProfileFile): string {
  const dir = configDir(io);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const path = join(dir, "profiles.json");
  atomicWrite(path, (write) => write(`${JSON.stringify(f, null, 2)}\n`));
  return path;
}

/** The profile a command uses, by name: `--profile`, else REPLYD_PROFILE, else the default; null when none is set. */
export function chosenProfile(io: Pick<IO, "env" | "platform" | "home">, flag: string | undefined): { name: string; profile: Profile } | null {
  const asked = flag ?? io.env.REPLYD_PROFILE;
  const f = readProfiles(io);
  const name = asked ?? f.default;
  if (name === null) return null;
  const profile = Object.hasOwn(f.profiles, name) ? f.profiles[name] : undefined;
  if (!profile) {
    const known = Object.keys(f.profiles);
    throw new CLIError("unknown_profile", `no profile "${name}"${flag === undefined ? " (REPLYD_PROFILE)" : ""}; ${known.length ? `known: ${known.join(", ")}` : "none is kept yet: replyd profile add NAME --url URL --appkey KEY"}`, 2);
  }
  return { name, profile };
}
