/** serve's settings (src/cli/setting-defs.ts, resolved in src/cli/settings.ts): declared once, read from the flags, the environment, a config file and the defaults, in that order. */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../src/cli/index.ts";
import { SERVE_SETTINGS, type Setting } from "../../src/cli/setting-defs.ts";
import { describeSettings, resolveSettings } from "../../src/cli/settings.ts";
import { readConfigFile, tomlReason } from "../../src/cli/config-file.ts";
import { openToOthers } from "../../src/base/fsutil.ts";
import { captureIO, tempDir } from "../helpers.ts";

const tmp = tempDir("replyd-settings-");
afterAll(() => tmp.cleanup());
/** A config file as an operator writes one (0600: one holding a secret is refused otherwise). */
const file = (name: string, text: string, mode = 0o600) => (writeFileSync(join(tmp.dir, name), text), chmodSync(join(tmp.dir, name), mode), name);

test("flag > environment > config file > default, each setting with where it came from", () => {
  const config = file("a.toml", 'port = 7001\nkeep = 7\nwindow = 2\nwx-appid = "wx0123456789abcdef"\n');
  const r = resolveSettings(["--config", config, "--port", "7003"], { REPLYD_PORT: "7002", REPLYD_WX_APPID: "wxfromtheenvironment" }, tmp.dir);
  expect(r.values.port).toBe(7003);
  expect(r.sources.port).toBe("flag");
  expect(resolveSettings(["--config", config], { REPLYD_PORT: "7002" }, tmp.dir).values.port).toBe(7002);
  expect(resolveSettings(["--config", config], {}, tmp.dir).values.port).toBe(7001);
  expect(resolveSettings([], {}, tmp.dir).values.port).toBe(8080);
  expect(r.values.keep).toBe(7);
  expect(r.sources.keep).toBe("file");
  expect(r.values["wx-appid"]).toBe("wxfromtheenvironment");
  expect(r.sources["log-days"]).toBe("default");
  expect(r.values["public-url"]).toBeUndefined();
  expect(r.sources["public-url"]).toBeNull();
  // The config file's name from the environment too.
  expect(resolveSettings([], { REPLYD_CONFIG: config }, tmp.dir).values.keep).toBe(7);
});

test("values are parsed and checked wherever they come from: sizes, numbers, booleans, refusals", () => {
  const config = file("b.toml", 'max-upload = "16M"\ntrust-proxy = true\n');
  const r = resolveSettings(["--config", config], {}, tmp.dir);
  expect(r.values["max-upload"]).toBe(16 * 1024 * 1024);
  expect(r.values["trust-proxy"]).toBe(true);
  expect(resolveSettings(["--trust-proxy"], {}, tmp.dir).values["trust-proxy"]).toBe(true);
  expect(() => resolveSettings(["--port", "abc"], {}, tmp.dir)).toThrow("--port must be a number from 0 to 65535");
  // Named where it was given: the environment variable, the config file's key.
  expect(() => resolveSettings([], { REPLYD_WX_MODE: "open" }, tmp.dir)).toThrow("REPLYD_WX_MODE must be safe");
  expect(() => resolveSettings(["--config", file("c.toml", 'max-media = "lots"\n')], {}, tmp.dir)).toThrow('"max-media" in the config file must be a size');
  expect(() => resolveSettings(["--config", file("c2.toml", 'port = "abc"\n')], {}, tmp.dir)).toThrow('"port" in the config file must be a number from 0 to 65535');
});

test("a config file with a key that is no setting, or that cannot be read, is refused naming it", () => {
  expect(() => resolveSettings(["--config", file("d.toml", "prot = 1\n")], {}, tmp.dir)).toThrow('"prot" is not a setting; did you mean "port"?');
  // A setting's name written with _: named, as the name it means; any other _ key may be a secret and is not quoted.
  expect(() => resolveSettings(["--config", file("u.toml", 'wx_token = "abc"\n')], {}, tmp.dir)).toThrow('"wx_token" is not a setting; did you mean "wx-token"?');
  expect(() => resolveSettings(["--config", file("v.toml", "sk_live_abcdef = 1\n")], {}, tmp.dir)).toThrow("a key is not a setting (known:");
  expect(() => resolveSettings(["--config", "missing.toml"], {}, tmp.dir)).toThrow("no such file");
  expect(() => resolveSettings(["--config", file("e.toml", "port = [1, 2]\n")], {}, tmp.dir)).toThrow('"port" must be a string, a number or true/false');
});

test("secrets are never printed; a password in a URL is hidden; a secret given as a flag is warned about, from the environment it is not", () => {
  const secret = "abcdefabcdef0123abcd";
  const r = resolveSettings(["--wx-secret", secret, "--wx-appid", "wx0123456789abcdef", "--db", "postgres://u:hunter2@db.example/replyd"], { REPLYD_WX_TOKEN: "tokentoken" }, tmp.dir);
  const shown = describeSettings(r);
  expect(shown).not.toContain(secret);
  expect(shown).not.toContain("tokentoken");
  expect(shown).not.toContain("hunter2");
  expect(shown).toMatch(/wx-secret\s+\(set, hidden\)\s+flag/);
  expect(shown).toMatch(/wx-token\s+\(set, hidden\)\s+environment/);
  expect(r.warnings).toEqual([expect.stringContaining("--db given as a flag is visible"), expect.stringContaining("--wx-secret given as a flag is visible")]);
  expect(r.warnings.join("\n")).not.toContain(secret);
  expect(resolveSettings([], { REPLYD_WX_SECRET: secret }, tmp.dir).warnings).toEqual([]);
});

test("serve --check-config prints the settings and exits 0 without starting a server; every setting has a flag (or, for a key, its variable) and help", async () => {
  const io = captureIO({ REPLYD_WX_SECRET: "abcdefabcdef0123abcd", REPLYD_WX_APPID: "wx0123456789abcdef" }, tmp.dir);
  expect(await run(["serve", "--check-config", "--port", "7777", "--data", join(tmp.dir, "never-made")], io)).toBe(0);
  expect(io.stdout.join("\n")).toMatch(/port\s+7777\s+flag/);
  expect(io.stdout.join("\n")).not.toContain("abcdefabcdef0123abcd");
  expect(await Bun.file(join(tmp.dir, "never-made")).exists()).toBe(false);
  const help = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), "serve", "--help"]).stdout.toString();
  for (const s of Object.values(SERVE_SETTINGS) as Setting[]) expect(help).toContain(s.noFlag ? (s.env as string) : `--${s.name}`);
  expect(help).toContain("--check-config");
});

test("--check-config says the data folder is not used when a database is given; without one, nothing beside it", () => {
  // A bike share's walkthrough: "data  …/replyd-data  default" under a db had read as a folder serve would make.
  const withDb = resolveSettings(["--db", "postgres://replyd:pw@127.0.0.1:5432/replyd"], {}, tmp.dir);
  expect(describeSettings(withDb)).toMatch(/^data\s+\S+\s+default {2}\(not used: db is set\)$/m);
  expect(describeSettings(withDb)).not.toContain("pw@");
  expect(describeSettings(resolveSettings([], {}, tmp.dir))).toMatch(/^data\s+\S+\s+default$/m);
});

test("--check-config says wx-mode is not used without a wx-aeskey (the callback takes plaintext); with one, nothing beside it", () => {
  // A theatre's walkthrough read "wx-mode  safe  default" of a server taking plaintext.
  expect(describeSettings(resolveSettings([], {}, tmp.dir))).toMatch(/^wx-mode\s+safe\s+default {2}\(not used: no wx-aeskey, the callback takes plaintext\)$/m);
  const keyed = resolveSettings(["--wx-aeskey", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"], {}, tmp.dir);
  expect(describeSettings(keyed)).toMatch(/^wx-mode\s+safe\s+default$/m);
});

test("--check-config with [accounts]: each account's wx-mode read against its own wx-aeskey; the server's line says so", () => {
  // A review: every account had been told "the callback takes plaintext", its own key read as the server's.
  const conf = join(tmp.dir, "accounts.toml");
  writeFileSync(conf, `port = 8080\n\n[accounts.shop]\nwx-token = "tok3ntok3n"\nwx-aeskey = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"\nwx-appid = "wx0123456789abcdef"\n\n[accounts.plain]\nwx-token = "tok3ntok3n"\n`);
  chmodSync(conf, 0o600);
  const out = describeSettings(resolveSettings(["--config", conf], {}, tmp.dir)).split("\n");
  const modes = out.filter((l) => l.startsWith("wx-mode") || l.startsWith("[accounts"));
  expect(modes[0]).toMatch(/^wx-mode\s+safe\s+default {2}\(each account's own: below\)$/);
  expect(modes[1]).toStartWith("[accounts.shop]");
  expect(modes[2]).not.toContain("not used");
  expect(modes[3]).toStartWith("[accounts.plain]");
  expect(modes[4]).toEndWith("(not used: no wx-aeskey, the callback takes plaintext)");
});

test("the model's settings: its key from the environment or the config file only, refused as a flag, never printed; its address checked", async () => {
  const key = "sk-live-0123456789abcdefXYZ";
  const fromEnv = resolveSettings(["--ai-url", "https://api.deepseek.com/v1/", "--ai-model", "deepseek-chat"], { REPLYD_AI_KEY: key }, tmp.dir);
  expect(fromEnv.values).toMatchObject({ "ai-url": "https://api.deepseek.com/v1", "ai-model": "deepseek-chat", "ai-key": key, "ai-timeout": 30, "ai-per-follower": 10, "ai-daily": 1000 });
  expect(fromEnv.sources["ai-key"]).toBe("environment");
  const fromFile = resolveSettings(["--config", file("ai.toml", `ai-url = "http://127.0.0.1:11434/v1"\nai-model = "llama3.1"\nai-key = "${key}"\nai-daily = 50\n`)], {}, tmp.dir);
  expect(fromFile.values).toMatchObject({ "ai-key": key, "ai-daily": 50 });
  expect(describeSettings(fromFile)).toMatch(/ai-key\s+\(set, hidden\)\s+file/);
  expect(describeSettings(fromFile)).not.toContain(key);
  expect(() => resolveSettings(["--ai-key", key], {}, tmp.dir)).toThrow("--ai-key is never taken as a flag");
  expect(() => resolveSettings([`--ai-key=${key}`], {}, tmp.dir)).toThrow("set REPLYD_AI_KEY in the environment");
  expect(() => resolveSettings(["--ai-url", "https://api.openai.com/v1/chat/completions"], {}, tmp.dir)).toThrow("without /chat/completions");
  expect(() => resolveSettings(["--ai-url", "api.openai.com/v1"], {}, tmp.dir)).toThrow("--ai-url must be an http(s) address");
  expect(() => resolveSettings(["--ai-per-follower", "0"], {}, tmp.dir)).toThrow("--ai-per-follower must be a number from 1");
  // What goes together: an address with a model, a key with an address.
  for (const [argv, env, says] of [
    [["--ai-url", "http://127.0.0.1:1/v1"], {}, "--ai-url needs --ai-model"],
    [["--ai-model", "m"], {}, "--ai-model needs --ai-url"],
    [[], { REPLYD_AI_KEY: key }, "REPLYD_AI_KEY is set but no --ai-url"],
  ] as const) {
    const io = captureIO(env, tmp.dir);
    expect(await run(["serve", "--data", join(tmp.dir, "never"), ...argv], io)).toBe(2);
    expect(io.stderr.join("\n")).toContain(says);
    expect(io.stderr.join("\n")).not.toContain(key);
  }
});

test("the model's address carries no key: a key in its query or a password in it is refused without printing it; http:// to another machine with a key is warned about", () => {
  const key = "sk-proj-query0123456789abcdef";
  for (const url of [`https://api.example.com/v1?api-key=${key}`, `https://api.example.com/v1?key=${key}`, `https://api.example.com/v1?access_token=${key}`, `https://user:${key}@api.example.com/v1`]) {
    let said = "";
    try {
      resolveSettings(["--ai-url", url, "--ai-model", "m"], {}, tmp.dir);
    } catch (e) {
      said = (e as Error).message;
    }
    expect(said).toContain("REPLYD_AI_KEY");
    expect(said).not.toContain(key);
  }
  // A query that is no credential is kept (Azure's api-version).
  expect(resolveSettings(["--ai-url", "https://x.openai.azure.com/openai/v1?api-version=2024-10-21", "--ai-model", "m"], {}, tmp.dir).values["ai-url"]).toContain("api-version");
  const warned = (url: string, env: Record<string, string>) => resolveSettings(["--ai-url", url, "--ai-model", "m"], env, tmp.dir).warnings.filter((w) => w.includes("clear text"));
  expect(warned("http://10.0.0.5:8000/v1", { REPLYD_AI_KEY: key })).toEqual(["--ai-url is http:// to another machine: the key (REPLYD_AI_KEY) travels in clear text to 10.0.0.5:8000; use https://"]);
  expect(warned("http://gpu-box.lan:11434/v1", { REPLYD_AI_KEY: key })).toHaveLength(1);
  // This machine, https, or no key to carry: no warning.
  for (const [url, env] of [["http://127.0.0.1:11434/v1", { REPLYD_AI_KEY: key }], ["http://localhost:11434/v1", { REPLYD_AI_KEY: key }], ["http://[::1]:8000/v1", { REPLYD_AI_KEY: key }], ["https://api.deepseek.com/v1", { REPLYD_AI_KEY: key }], ["http://10.0.0.5:8000/v1", {}]] as const)
    expect(warned(url, env)).toEqual([]);
});

test("the budget per minute and the calls in flight: defaults 30 and 8, each checked", () => {
  expect(resolveSettings([], {}, tmp.dir).values).toMatchObject({ "ai-per-minute": 30, "ai-concurrency": 8 });
  expect(resolveSettings(["--ai-per-minute", "5", "--ai-concurrency", "2"], {}, tmp.dir).values).toMatchObject({ "ai-per-minute": 5, "ai-concurrency": 2 });
  expect(() => resolveSettings(["--ai-per-minute", "0"], {}, tmp.dir)).toThrow("--ai-per-minute must be a number from 1");
  expect(() => resolveSettings(["--ai-concurrency", "0"], {}, tmp.dir)).toThrow("--ai-concurrency must be a number from 1");
});

test("a TOML refusal's reason keeps nothing of the line but a setting's name, however the parser words it", () => {
  const line = "ai-key = sk-live-0123456789abcdef";
  // As Bun words them today: the value after a colon, one character quoted.
  expect(tomlReason('TOML Parse error: Strings must be quoted: "sk-live-0123456789abcdef"', line, SERVE_SETTINGS)).toBe("strings must be quoted");
  expect(tomlReason("TOML Parse error: Unexpected character after a value: 's'", line, SERVE_SETTINGS)).toBe("unexpected character after a value");
  expect(tomlReason("TOML Parse error: Expected '=' after a key but found 's'", "sk-live-0123456789abcdef", SERVE_SETTINGS)).toBe("expected '=' after a key");
  expect(tomlReason("TOML Parse error: Cannot redefine key 'ai-key'", line, SERVE_SETTINGS)).toBe("cannot redefine key 'ai-key'");
  // Worded otherwise: quoted text that is not a setting's name is cut; the line's words never pass.
  expect(tomlReason("Bad value 'sk-live-0123456789abcdef' here", line, SERVE_SETTINGS)).toBe("bad value … here");
  expect(tomlReason("Bad value sk-live-0123456789abcdef here", line, SERVE_SETTINGS)).toBe("it is not a setting = value");
  expect(tomlReason("Bad value 0123456789abcdef", line, SERVE_SETTINGS)).toBe("it is not a setting = value");
});

test("serve --check-config --json: every setting with its value (a secret only as set) and where it came from; a refusal as JSON, exit 2", async () => {
  const secret = "0123456789abcdef0123456789abcdef";
  const io = captureIO({ REPLYD_WX_SECRET: secret }, tmp.dir);
  expect(await run(["serve", "--check-config", "--json", "--port", "7010", "--wx-appid", "wx0123456789abcdef"], io)).toBe(0);
  const out = JSON.parse(io.stdout.join(""));
  expect(out.ok).toBe(true);
  expect(out.settings).toContainEqual({ name: "port", value: 7010, secret: false, source: "flag" });
  expect(out.settings).toContainEqual({ name: "wx-secret", value: "(set, hidden)", secret: true, source: "environment" });
  expect(out.settings).toContainEqual({ name: "keep", value: 30, secret: false, source: "default" });
  expect(JSON.stringify(out)).not.toContain(secret);
  const refused = captureIO({}, tmp.dir);
  expect(await run(["serve", "--check-config", "--json", "--wx-aeskey", "a".repeat(43)], refused)).toBe(2);
  expect(JSON.parse(refused.stdout.join(""))).toMatchObject({ ok: false, error: { code: "usage", message: expect.stringContaining("--wx-aeskey needs --wx-appid") } });
});

test("a config file others may write is refused even without a secret (it would choose where the key goes); one they may only read is taken when it holds none", () => {
  for (const mode of [0o666, 0o620, 0o602]) {
    const path = file(`w${mode.toString(8)}.toml`, 'ai-url = "https://attacker.example/v1"\nai-model = "m"\n', mode);
    expect(() => resolveSettings(["--config", path], { REPLYD_AI_KEY: "sk-0123456789abcdef" }, tmp.dir)).toThrow("run: chmod 600");
  }
  const readable = file("r644.toml", "port = 7011\n", 0o644);
  expect(resolveSettings(["--config", readable], {}, tmp.dir).values.port).toBe(7011);
});

test("on Windows the mode says nothing of other users (0o666 for any writable file): a config file is not refused by it there, and is on POSIX", () => {
  const path = join(tmp.dir, file("win666.toml", 'wx-secret = "0123456789abcdef0123456789abcdef"\nport = 7012\n', 0o666));
  expect(readConfigFile(path, SERVE_SETTINGS, "win32").port).toBe("7012");
  expect(() => readConfigFile(path, SERVE_SETTINGS, "linux")).toThrow("run: chmod 600");
  expect(openToOthers(path, 0o666, "win32")).toBeNull();
  expect(openToOthers(path, 0o600, "linux")).toBeNull();
  expect(openToOthers(path, 0o640, "linux")).toContain("can be read by other users");
});

test("a key in --ai-url's query under any prefixed name is refused; a config key shaped like a secret is not quoted back", () => {
  for (const url of ["https://api.example.com/v1?x-api-key=sk-abc", "https://api.example.com/v1?my_token=sk-abc", "https://api.example.com/v1?X-Goog-Api-Key=sk-abc"])
    expect(() => resolveSettings(["--ai-url", url, "--ai-model", "m"], {}, tmp.dir)).toThrow("REPLYD_AI_KEY");
  const path = file("key-as-name.toml", '"sk-live-0123456789abcdef" = 1\n');
  let said = "";
  try {
    resolveSettings(["--config", path], {}, tmp.dir);
  } catch (e) {
    said = (e as Error).message;
  }
  expect(said).toContain("a key is not a setting");
  expect(said).not.toContain("sk-live");
});

test("a yes/no setting (trust-proxy) is true or 1, false or 0 in the config file: any other word is refused, not read as false", () => {
  for (const [word, want] of [["true", true], ["1", true], ["TRUE", true], ["false", false], ["0", false]] as const)
    expect(resolveSettings(["--config", file(`tp-${word}.toml`, `trust-proxy = "${word}"\n`)], {}, tmp.dir).values["trust-proxy"]).toBe(want);
  expect(resolveSettings(["--config", file("tp-bool.toml", "trust-proxy = true\n")], {}, tmp.dir).values["trust-proxy"]).toBe(true);
  for (const word of ["yes", "on", "no", ""])
    expect(() => resolveSettings(["--config", file(`tp-x${word}.toml`, `trust-proxy = "${word}"\n`)], {}, tmp.dir)).toThrow(`"trust-proxy" in the config file must be true or false ("${word}" given)`);
});

test("a setting's value left unquoted (64M, safe) is said to go in quotes, the value itself not shown", () => {
  let said = "";
  try {
    resolveSettings(["--config", file("bare.toml", "port = 8080\nmax-upload = 64M\n")], {}, tmp.dir);
  } catch (e) {
    said = (e as Error).message;
  }
  expect(said).toContain('line 2 ("max-upload") is not valid TOML');
  expect(said).toContain('a value other than a number or true/false goes in quotes: max-upload = "…"');
  expect(said).not.toContain("64M");
});

test("the data folder is shown where serve will use it: a relative one from the working folder", () => {
  expect(resolveSettings(["--data", "rel/data"], {}, tmp.dir).values.data).toBe(join(tmp.dir, "rel", "data"));
  expect(resolveSettings(["--data", "/srv/replyd"], {}, tmp.dir).values.data).toBe("/srv/replyd");
});

test("the unquoted-value hint reads the value after the key's =, and says true or false for a yes/no setting", () => {
  const said = (name: string, text: string) => {
    try {
      resolveSettings(["--config", file(name, text)], {}, tmp.dir);
      return "";
    } catch (e) {
      return (e as Error).message;
    }
  };
  expect(said("yn.toml", "trust-proxy = yes\n")).toContain("; trust-proxy is true or false");
  const url = said("url.toml", "ai-url = http://h.example/v1?v=2\n");
  expect(url).toContain('line 1 ("ai-url") is not valid TOML');
  expect(url).not.toContain("h.example");
  expect(said("num.toml", "port = 80 80\n")).not.toContain("goes in quotes");
});
