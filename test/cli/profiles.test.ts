/**
 * Profiles on the laptop (issue 35 B): kept in the user's config folder as each system places it,
 * the owner's alone; the secret read from standard input, never a flag; each of the server's
 * address, appkey and secret from its flag, else the environment, else the profile.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/cli/config.ts";
import { run } from "../../src/cli/index.ts";
import { configDir, profilesPath } from "../../src/cli/profiles.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN, ADMIN_ENV, captureIO, serveOpts, tempDir } from "../helpers.ts";

let tmp: ReturnType<typeof tempDir>;
let server: RunningServer;
beforeAll(async () => {
  tmp = tempDir("replyd-profiles-");
  server = await startServer(serveOpts(join(tmp.dir, "data"), { env: ADMIN_ENV }));
});
afterAll(async () => {
  await server.stop();
  tmp.cleanup();
});

/** The client as a user whose home is `home`, typing `secret` when asked. */
const as = (home: string, env: Record<string, string> = {}, secret?: string) => captureIO({ HOME: home, ...env, ...(secret !== undefined ? { TEST_SECRET_INPUT: secret } : {}) }, home);

test("the config folder is where each system keeps a user's configuration", () => {
  expect(configDir({ platform: "linux", home: "/home/ann", env: {} })).toBe("/home/ann/.config/replyd");
  expect(configDir({ platform: "linux", home: "/home/ann", env: { XDG_CONFIG_HOME: "/cfg" } })).toBe("/cfg/replyd");
  expect(configDir({ platform: "darwin", home: "/Users/ann", env: { XDG_CONFIG_HOME: "/cfg" } })).toBe("/Users/ann/Library/Application Support/replyd");
  expect(configDir({ platform: "win32", home: "C:\\Users\\ann", env: { APPDATA: "C:\\Users\\ann\\AppData\\Roaming" } })).toBe(join("C:\\Users\\ann\\AppData\\Roaming", "replyd"));
});

test("profile add keeps the server, the appkey and the secret read from standard input, at 0600; the first is the default; health names it", async () => {
  const home = join(tmp.dir, "h1");
  const io = as(home, {}, "  " + ADMIN.secret + "\n");
  expect(await run(["profile", "add", "shop", "--url", server.url, "--appkey", ADMIN.appkey], io)).toBe(0);
  const path = profilesPath({ platform: "linux", home, env: {} });
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(join(home, ".config", "replyd")).mode & 0o777).toBe(0o700);
  expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ default: "shop", profiles: { shop: { url: server.url, appkey: ADMIN.appkey, secret: ADMIN.secret } } });
  const h = as(home);
  expect(await run(["health"], h)).toBe(0);
  expect(h.stdout.join("\n")).toContain(`, profile shop`);
  const j = as(home);
  expect(await run(["health", "--json"], j)).toBe(0);
  expect(JSON.parse(j.stdout.join(""))).toMatchObject({ status: "ok", profile: "shop" });
  // The secret is shown nowhere: not by ls, not by add's answer.
  const ls = as(home);
  await run(["profile", "ls", "--json"], ls);
  expect(ls.stdout.join("")).not.toContain(ADMIN.secret);
  expect(JSON.parse(ls.stdout.join("")).profiles).toEqual([{ name: "shop", url: server.url, appkey: ADMIN.appkey, account: null, default: true }]);
  expect(io.stdout.join("") + io.stderr.join("")).not.toContain(ADMIN.secret);
});

test("profile ls lines up its columns and shows the account a profile keeps", async () => {
  const home = join(tmp.dir, "h12");
  const offline = (secret: string) => Object.assign(as(home, {}, secret), { fetch: () => Promise.reject(new Error("offline")) });
  expect(await run(["profile", "add", "shop", "--url", "http://shop.example:8080", "--appkey", "rk_a", "--account", "shop"], offline("s1"))).toBe(0);
  expect(await run(["profile", "add", "staging-long-name", "--url", "http://s.example", "--appkey", "rk_bbbbbb"], offline("s2"))).toBe(0);
  const ls = as(home);
  expect(await run(["profile", "ls"], ls)).toBe(0);
  expect(ls.stdout.join("\n").split("\n")).toEqual([
    "* shop               http://shop.example:8080  rk_a       account shop",
    "  staging-long-name  http://s.example          rk_bbbbbb",
  ]);
});

test("the secret is never a flag; an empty one, a bad name, a bad address or a kept name are refused", async () => {
  const home = join(tmp.dir, "h2");
  const code = async (argv: string[], secret = "s3cret-0123456789") => {
    const io = as(home, {}, secret);
    return [await run(argv, io), io.stderr.join("\n")] as const;
  };
  const [c1, e1] = await code(["profile", "add", "p", "--url", server.url, "--appkey", "k", "--secret", "visible-in-ps"]);
  expect([c1, e1]).toEqual([2, expect.stringContaining("reads the secret from standard input")]);
  expect(existsSync(profilesPath({ platform: "linux", home, env: {} }))).toBe(false);
  expect((await code(["profile", "add", "p", "--url", server.url, "--appkey", "k"], "  \n"))[1]).toContain("no secret was read");
  expect((await code(["profile", "add", "-bad", "--url", server.url, "--appkey", "k"]))[0]).toBe(2);
  expect((await code(["profile", "add", "p", "--url", `${server.url}/api/cli`, "--appkey", "k"]))[1]).toContain("leave out /api/cli");
  expect((await code(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey], ADMIN.secret))[0]).toBe(0);
  expect((await code(["profile", "add", "p", "--url", server.url, "--appkey", "other"]))[1]).toContain('a profile "p" is kept already');
  expect((await code(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey, "--force"], ADMIN.secret))[0]).toBe(0);
});

test("profile add asks the server with the key first: a key it refuses is not kept, and says why; a server that does not answer leaves it kept with a warning", async () => {
  const home = join(tmp.dir, "h6");
  const path = profilesPath({ platform: "linux", home, env: {} });
  const wrong = as(home, {}, "not-the-secret-0123456789");
  expect(await run(["profile", "add", "shop", "--url", server.url, "--appkey", ADMIN.appkey], wrong)).toBe(1);
  expect(wrong.stderr.join("\n")).toContain(`${server.url} refuses this key (the secret given is not appkey "${ADMIN.appkey}"'s), so profile "shop" was not kept`);
  const unknown = as(home, {}, ADMIN.secret);
  expect(await run(["profile", "add", "shop", "--url", server.url, "--appkey", "rk_nobody"], unknown)).toBe(1);
  expect(unknown.stderr.join("\n")).toContain('refuses this key (it knows no appkey "rk_nobody"), so profile "shop" was not kept');
  expect(existsSync(path)).toBe(false);
  // Nothing listens on the discard port: kept as given, with the reason it was not checked.
  const away = as(home, {}, ADMIN.secret);
  expect(await run(["profile", "add", "later", "--url", "http://127.0.0.1:9", "--appkey", ADMIN.appkey], away)).toBe(0);
  expect(away.stderr.join("\n")).toContain('the key was not checked (cannot reach http://127.0.0.1:9: nothing listens there');
  expect(JSON.parse(readFileSync(path, "utf8")).profiles.later.appkey).toBe(ADMIN.appkey);
});

test("a signature refused with a profile's secret names the profile and how to keep the right one; with --secret or REPLYD_SECRET, the flag", async () => {
  const home = join(tmp.dir, "h7");
  expect(await run(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey], as(home, {}, ADMIN.secret))).toBe(0);
  // The secret changed on the server's side after the profile was kept (the profile file edited here).
  const path = profilesPath({ platform: "linux", home, env: {} });
  const f = JSON.parse(readFileSync(path, "utf8"));
  f.profiles.p.secret = "rotated-away-0123456789";
  writeFileSync(path, JSON.stringify(f), { mode: 0o600 });
  const io = as(home);
  expect(await run(["health"], io)).toBe(1);
  expect(io.stderr.join("\n")).toContain(`the secret kept in profile "p" is not the one of appkey "${ADMIN.appkey}" (replyd profile add p --url ${server.url} --appkey ${ADMIN.appkey} --force`);
  const env = as(home, { REPLYD_SECRET: "rotated-away-0123456789" });
  expect(await run(["health"], env)).toBe(1);
  expect(env.stderr.join("\n")).toContain("check --secret (REPLYD_SECRET)");
  const flag = as(home);
  expect(await run(["health", "--secret", "rotated-away-0123456789"], flag)).toBe(1);
  expect(flag.stderr.join("\n")).toContain("check --secret (REPLYD_SECRET)");
  // A key the server no longer knows (revoked): the profile is named, with how to keep another.
  const revoked = JSON.parse(readFileSync(path, "utf8"));
  revoked.profiles.p.appkey = "rk_revoked";
  writeFileSync(path, JSON.stringify(revoked), { mode: 0o600 });
  const gone = as(home);
  expect(await run(["health"], gone)).toBe(1);
  expect(gone.stderr.join("\n")).toContain('the server knows no appkey "rk_revoked", which profile "p" keeps');
  writeFileSync(path, JSON.stringify(f), { mode: 0o600 });
  // The appkey given apart, the secret the profile's: not the profile's key to mend.
  const mixed = as(home, { REPLYD_APPKEY: ADMIN.appkey });
  f.profiles.p.secret = "rotated-away-0123456789";
  expect(await run(["health"], mixed)).toBe(1);
  expect(mixed.stderr.join("\n")).not.toContain("kept in profile");
  // …but where each came from is (a bike share's operator, another server's REPLYD_APPKEY still exported).
  const stale = as(home, { REPLYD_APPKEY: "rk_other0000", REPLYD_SECRET: "s" });
  expect(await run(["health"], stale)).toBe(1);
  expect(stale.stderr.join("\n")).toContain('— the server\'s address came from profile "p", the key from REPLYD_APPKEY (unset REPLYD_APPKEY and REPLYD_SECRET to use the profile\'s key) [unknown_appkey');
});

test("profile add keeps a key the server knows that may not read health (a token key), saying so", async () => {
  const home = join(tmp.dir, "h9");
  const keysFile = join(tmp.dir, "data", "keys.json");
  const io = captureIO({ REPLYD_URL: server.url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, tmp.dir);
  expect(await run(["keys", "add", "--scope", "token", "--data", join(tmp.dir, "data"), "--json"], io)).toBe(0);
  const token = JSON.parse(io.stdout.join("")) as { appkey: string; secret: string };
  expect(existsSync(keysFile)).toBe(true);
  await Bun.sleep(1100); // keys.json is read again within a second of a change
  const add = as(home, {}, token.secret);
  expect(await run(["profile", "add", "tok", "--url", server.url, "--appkey", token.appkey], add)).toBe(0);
  expect(add.stderr.join("\n")).toContain('the server knows this key, but it may not read health');
});

test("replyd sign never signs with a profile's key for another server", async () => {
  const home = join(tmp.dir, "h10");
  expect(await run(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey], as(home, {}, ADMIN.secret))).toBe(0);
  const io = as(home);
  expect(await run(["sign", "GET", "/api/cli", "--url", "http://elsewhere.example", "--curl"], io)).toBe(2);
  expect(io.stderr.join("\n")).toContain('the profile "p" keeps a key for');
  const none = as(join(tmp.dir, "h11"));
  expect(await run(["sign", "GET", "/api/cli"], none)).toBe(2);
  expect(none.stderr.join("\n")).toContain("set --appkey (REPLYD_APPKEY) and --secret (REPLYD_SECRET), or use a profile");
});

test("replyd sign takes the key of a profile (the default, or --profile): what it signs, the server accepts", async () => {
  const home = join(tmp.dir, "h8");
  expect(await run(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey], as(home, {}, ADMIN.secret))).toBe(0);
  for (const argv of [["sign", "GET", "/api/cli"], ["sign", "GET", "/api/cli", "--profile", "p"]]) {
    const io = as(home);
    expect(await run(argv, io)).toBe(0);
    const query = io.stdout.join("").trim();
    expect(query).toContain(`appkey=${ADMIN.appkey}`);
    expect((await fetch(`${server.url}/api/cli?${query}`)).status).toBe(200);
  }
  const curl = as(home);
  expect(await run(["sign", "GET", "/api/cli", "--curl"], curl)).toBe(0);
  expect(curl.stdout.join("")).toContain(`"${server.url}/api/cli?`);
});

test("a command with nothing listening at the address says to check that replyd serve runs there", async () => {
  const io = captureIO({ REPLYD_URL: "http://127.0.0.1:9", REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, tmp.dir);
  expect(await run(["health"], io)).not.toBe(0);
  expect(io.stderr.join("\n")).toContain("cannot reach http://127.0.0.1:9: nothing listens there — is replyd serve running, and is --url (REPLYD_URL) its address?");
});

test("a profiles file others can read or write is refused with the chmod to run", async () => {
  const home = join(tmp.dir, "h3");
  expect(await run(["profile", "add", "p", "--url", server.url, "--appkey", ADMIN.appkey], as(home, {}, ADMIN.secret))).toBe(0);
  const path = profilesPath({ platform: "linux", home, env: {} });
  for (const mode of [0o640, 0o604, 0o620, 0o602]) {
    chmodSync(path, mode);
    const io = as(home);
    expect(await run(["health"], io)).toBe(2);
    expect(io.stderr.join("\n")).toContain(`run: chmod 600 ${path}`);
  }
  chmodSync(path, 0o600);
  expect(await run(["health"], as(home))).toBe(0);
});

test("flag > environment > profile, field by field; --profile or REPLYD_PROFILE chooses; an unknown one is refused", async () => {
  const home = join(tmp.dir, "h4");
  const io = { platform: "linux" as const, home, env: {} };
  // Servers that are not there (no lookup leaves this machine): the profiles are kept unchecked.
  const offline = (secret: string) => Object.assign(as(home, {}, secret), { fetch: () => Promise.reject(new Error("offline")) });
  for (const [name, url, key] of [["a", "http://a.example", "ka"], ["b", "http://b.example", "kb"]] as const)
    expect(await run(["profile", "add", name, "--url", url, "--appkey", key], offline(`secret-${name}`))).toBe(0);
  expect(resolveConfig({}, io)).toEqual({ url: "http://a.example", appkey: "ka", secret: "secret-a", profile: "a", secretFrom: "a" });
  expect(resolveConfig({ profile: "b" }, io)).toEqual({ url: "http://b.example", appkey: "kb", secret: "secret-b", profile: "b", secretFrom: "b" });
  expect(resolveConfig({}, { ...io, env: { REPLYD_PROFILE: "b" } })).toMatchObject({ url: "http://b.example", profile: "b" });
  // The environment beats the profile, a flag beats both, each field on its own — for the profile's own server.
  // The address from the profile, the key given apart: said (mixed) when the server refuses the key.
  expect(resolveConfig({ appkey: "flagkey" }, { ...io, env: { REPLYD_SECRET: "envsecret" } })).toEqual({ url: "http://a.example", appkey: "flagkey", secret: "envsecret", profile: "a", mixed: { profile: "a", keyFrom: "--appkey" } });
  expect(resolveConfig({ url: "http://a.example/" }, { ...io, env: { REPLYD_APPKEY: "envkey" } })).toEqual({ url: "http://a.example", appkey: "envkey", secret: "secret-a", profile: "a" });
  // Never the profile's key for another server: a signed request sent there could be replayed to the profile's.
  expect(() => resolveConfig({ url: "http://flag.example" }, io)).toThrow('the profile "a" keeps a key for http://a.example, not for http://flag.example');
  expect(() => resolveConfig({}, { ...io, env: { REPLYD_URL: "http://env.example", REPLYD_APPKEY: "envkey" } })).toThrow("give --appkey and --secret");
  // All three given: no profile is read (nor named).
  expect(resolveConfig({ url: "http://f.example", appkey: "f", secret: "f" }, io)).toEqual({ url: "http://f.example", appkey: "f", secret: "f", profile: null });
  expect(() => resolveConfig({ profile: "nope" }, io)).toThrow('no profile "nope"; known: a, b');
  // A name every object answers to is no profile.
  expect(() => resolveConfig({ profile: "toString" }, io)).toThrow('no profile "toString"');
  expect(await run(["profile", "use", "hasOwnProperty"], as(home))).toBe(2);
  expect(() => resolveConfig({}, { ...io, env: { REPLYD_PROFILE: "nope" } })).toThrow('no profile "nope" (REPLYD_PROFILE)');
  expect(await run(["profile", "use", "b"], as(home))).toBe(0);
  expect(resolveConfig({}, io)).toMatchObject({ profile: "b" });
  expect(await run(["profile", "rm", "b"], as(home))).toBe(0);
  // No default now: nothing set says what is missing and how to keep a profile.
  expect(() => resolveConfig({}, io)).toThrow("add a profile (replyd profile add NAME");
});

test("a profile named with --profile or REPLYD_PROFILE keeps its account: REPLYD_ACCOUNT saying another is refused, --account chooses, the default profile still yields to it", async () => {
  const home = join(tmp.dir, "h13");
  const io = { platform: "linux" as const, home, env: {} };
  const offline = (secret: string) => Object.assign(as(home, {}, secret), { fetch: () => Promise.reject(new Error("offline")) });
  expect(await run(["profile", "add", "shop", "--url", "http://s.example", "--appkey", "ks", "--account", "shop"], offline("secret-s"))).toBe(0);
  const blogInShell = { ...io, env: { REPLYD_ACCOUNT: "blog" } };
  expect(() => resolveConfig({ profile: "shop" }, blogInShell)).toThrow('the profile "shop" is for the account shop, and REPLYD_ACCOUNT says blog: unset REPLYD_ACCOUNT, or give --account to choose one');
  expect(resolveConfig({ profile: "shop", account: "blog" }, blogInShell)).toMatchObject({ profile: "shop", account: "blog" });
  expect(resolveConfig({ profile: "shop" }, { ...io, env: { REPLYD_ACCOUNT: "shop" } })).toMatchObject({ account: "shop" });
  // Named by REPLYD_PROFILE, it is meant whole too (it printed "profile shop" and acted on blog).
  expect(() => resolveConfig({}, { ...io, env: { REPLYD_ACCOUNT: "blog", REPLYD_PROFILE: "shop" } })).toThrow('the profile "shop" (REPLYD_PROFILE) is for the account shop, and REPLYD_ACCOUNT says blog');
  expect(resolveConfig({ account: "blog" }, { ...io, env: { REPLYD_ACCOUNT: "blog", REPLYD_PROFILE: "shop" } })).toMatchObject({ profile: "shop", account: "blog" });
  // Not named (the default profile): the environment still beats it, field by field.
  expect(resolveConfig({}, blogInShell)).toMatchObject({ profile: "shop", account: "blog" });
});

test("a profiles file written on Windows (CRLF) or by hand is read; one that is not JSON is refused naming it", async () => {
  const home = join(tmp.dir, "h5");
  const dir = join(home, ".config", "replyd");
  await run(["profile", "add", "w", "--url", server.url, "--appkey", ADMIN.appkey], as(home, {}, ADMIN.secret));
  const path = join(dir, "profiles.json");
  writeFileSync(path, readFileSync(path, "utf8").replace(/\n/g, "\r\n"), { mode: 0o600 });
  expect(await run(["health"], as(home))).toBe(0);
  writeFileSync(path, "{ not json", { mode: 0o600 });
  const io = as(home);
  expect(await run(["health"], io)).toBe(2);
  expect(io.stderr.join("\n")).toContain(`${path} is not JSON`);
});

test("profile add NAME --account X --force changes only the account of a kept profile: the server, key and secret stay, nothing is asked", async () => {
  const home = join(tmp.dir, "h14");
  const offline = (secret?: string) => Object.assign(as(home, {}, secret), { fetch: () => Promise.reject(new Error("offline")) });
  expect(await run(["profile", "add", "shop", "--url", "http://s.example", "--appkey", "ks"], offline("secret-s"))).toBe(0);
  const refused = offline();
  expect(await run(["profile", "add", "shop", "--account", "shop"], refused)).toBe(2);
  expect(refused.stderr.join("\n")).toContain('a profile "shop" is kept already; pass --force');
  // No secret to read: asked, it would be refused ("no secret was read").
  const changed = offline();
  expect(await run(["profile", "add", "shop", "--account", "shop", "--force"], changed)).toBe(0);
  expect(changed.stdout.join("\n")).toContain('kept profile "shop" (http://s.example, ks, account shop)');
  const io = { platform: "linux" as const, home, env: {} };
  expect(resolveConfig({ profile: "shop" }, io)).toEqual({ url: "http://s.example", appkey: "ks", secret: "secret-s", profile: "shop", secretFrom: "shop", account: "shop" });
  // --url without --appkey is still a usage error, saying how to change only the account.
  const half = offline("x");
  expect(await run(["profile", "add", "shop", "--url", "http://t.example", "--force"], half)).toBe(2);
  expect(half.stderr.join("\n")).toContain('to change only the account of "shop": profile add shop --account NAME --force');
});

test("profile add with a wrong secret again and again: locked out, said in profile add's terms (the server's message names --secret, which profile add does not take)", async () => {
  const own = await startServer(serveOpts(join(tmp.dir, "data-lockout"), { env: ADMIN_ENV }));
  try {
    const home = join(tmp.dir, "h-lockout");
    let said = "";
    for (let i = 0; i < 30 && !said.includes("too many"); i++) {
      const again = as(home, {}, "not-the-secret-0123456789");
      expect(await run(["profile", "add", "shop", "--url", own.url, "--appkey", ADMIN.appkey], again)).toBe(1);
      said = again.stderr.join("\n");
    }
    expect(said).toMatch(/refuses this key \(too many wrong secrets from this address: locked out for \d+ s more; the right secret is still accepted\), so profile "shop" was not kept/);
    expect(said).not.toContain("--secret");
  } finally {
    await own.stop();
  }
});
