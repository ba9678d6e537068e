/**
 * serve's settings as an operator trusts them, through dist/replyd (issue 33 F): a config file
 * holding a secret refused while others can read or write it; `--check-config` refusing exactly
 * what serve refuses, with its exit status and words; a config file that is not TOML refused
 * without printing what it holds.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

let tmp: ReturnType<typeof tempDir>;

beforeAll(() => {
  buildIfMissing();
  tmp = tempDir("replyd-binset-");
});
const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));
afterAll(() => tmp.cleanup());

/**
 * dist/replyd in the temp folder with only these variables. A serve that starts when it should
 * have refused is stopped after 10 s and seen as such (a refusal takes a few milliseconds).
 */
function replyd(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, timeout: 10_000 });
  return { code: p.exitCode, err: p.stderr.toString(), out: p.stdout.toString(), started: p.exitedDueToTimeout === true };
}
/** serve on a data folder of its own that it must never make: a refusal comes before anything is opened. */
const serve = (name: string, args: string[], env: Record<string, string> = {}) => {
  const r = replyd(["serve", "--data", name, "--host", "127.0.0.1", "--port", "0", ...args], env);
  return { ...r, made: existsSync(join(tmp.dir, name)) };
};
const config = (name: string, text: string, mode: number) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
};

const AESKEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
const APPSECRET = "abcdef0123456789abcdef0123456789";
/** Each secret a config file may hold, with what it needs beside it to pass every check. */
const SECRETS: Record<string, { file: string; value: string }> = {
  "ai-key": { file: 'ai-url = "http://127.0.0.1:9/v1"\nai-model = "m1"\nai-key = "sk-file-0123456789abcdef"\n', value: "sk-file-0123456789abcdef" },
  "wx-secret": { file: `wx-appid = "wx0123456789abcdef"\nwx-secret = "${APPSECRET}"\n`, value: APPSECRET },
  "wx-token": { file: 'wx-token = "tokenInTheFile42"\n', value: "tokenInTheFile42" },
  "wx-aeskey": { file: `wx-appid = "wx0123456789abcdef"\nwx-aeskey = "${AESKEY}"\n`, value: AESKEY },
  db: { file: 'db = "postgres://replyd:pw-in-the-file-42@127.0.0.1:9/replyd"\n', value: "pw-in-the-file-42" },
};
/** One mode for each bit that lets another user at the file. */
const OPEN_MODES = { "group read": 0o640, "others read": 0o604, "group write": 0o620, "others write": 0o602, "group execute": 0o610, "others execute": 0o601 };

describe("a config file holding a secret", () => {
  for (const [key, { file, value }] of Object.entries(SECRETS))
    test(`holding ${key}: refused while its group or others can read, write or open it (serve and --check-config, exit 2, the chmod to run); 0600 and 0400 pass`, () => {
      for (const [bits, mode] of Object.entries(OPEN_MODES)) {
        const path = config(`${key}-${mode.toString(8)}.toml`, file, mode);
        for (const r of [serve("never", ["--config", path]), replyd(["serve", "--config", path, "--check-config"])]) {
          expect({ bits, code: r.code, started: r.started }).toEqual({ bits, code: 2, started: false });
          expect(r.err).toContain(`holds a secret ("${key}")`);
          expect(r.err).toContain(`run: chmod 600 ${path}`);
          expect(r.err + r.out).not.toContain(value);
        }
        expect(existsSync(join(tmp.dir, "never"))).toBe(false);
      }
      for (const mode of [0o600, 0o400]) {
        const path = config(`${key}-${mode.toString(8)}.toml`, file, mode);
        const r = replyd(["serve", "--config", path, "--check-config"]);
        expect({ mode, code: r.code, err: r.err }).toEqual({ mode, code: 0, err: "" });
        expect(r.out).toMatch(new RegExp(`${key}\\s+(\\(set, hidden\\)|postgres://replyd:\\*\\*\\*@)`));
        expect(r.out).not.toContain(value);
      }
    });

  test("a config file without a secret may be read by others, nor is one whose secret comes from the environment refused; none may be written by others", () => {
    const text = 'port = 7001\nwx-appid = "wx0123456789abcdef"\ndb = "postgres://replyd@127.0.0.1:9/replyd"\n';
    const path = config("open.toml", text, 0o644);
    const r = replyd(["serve", "--config", path, "--check-config"], { REPLYD_WX_SECRET: APPSECRET });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/port\s+7001\s+file/);
    expect(r.out).toMatch(/wx-secret\s+\(set, hidden\)\s+environment/);
    const writable = config("writable.toml", text, 0o666);
    const w = replyd(["serve", "--config", writable, "--check-config"], { REPLYD_WX_SECRET: APPSECRET });
    expect(w.code).toBe(2);
    expect(w.err).toContain(`run: chmod 600 ${writable}`);
  });
});

describe("--check-config refuses what serve refuses", () => {
  const key = "sk-env-0123456789abcdef";
  const cases: [string, string[], Record<string, string>, string][] = [
    ["an address without a model", ["--ai-url", "http://127.0.0.1:9/v1"], {}, "--ai-url needs --ai-model"],
    ["a model without an address", ["--ai-model", "m1"], {}, "--ai-model needs --ai-url"],
    ["a model's key without an address", [], { REPLYD_AI_KEY: key }, "REPLYD_AI_KEY is set but no --ai-url"],
    ["an EncodingAESKey without an appid", [], { REPLYD_WX_AESKEY: AESKEY }, "--wx-aeskey needs --wx-appid"],
    ["compatible mode without an EncodingAESKey", ["--wx-mode", "compatible"], {}, "--wx-mode compatible needs --wx-aeskey"],
    ["an AppSecret without an appid", [], { REPLYD_WX_SECRET: APPSECRET }, "--wx-secret needs --wx-appid"],
    ["Redis without a database", ["--redis", "redis://127.0.0.1:9"], {}, "--redis joins instances that share one PostgreSQL database"],
    ["an admin appkey without its secret", [], { REPLYD_APPKEY: "ops" }, "REPLYD_APPKEY and REPLYD_SECRET go together"],
    ["an admin appkey that cannot be one", [], { REPLYD_APPKEY: "o p s", REPLYD_SECRET: "0123456789abcdef0123" }, "REPLYD_APPKEY must match"],
    ["an admin secret too short", [], { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789" }, "REPLYD_SECRET must be at least 16 characters"],
    ["a value a setting refuses", ["--port", "70000"], {}, "--port must be a number from 0 to 65535"],
  ];
  for (const [what, args, env, says] of cases)
    test(`${what}: both exit 2 saying "${says}", and nothing is made`, () => {
      const served = serve(`never-${what.replace(/\W+/g, "-")}`, args, env);
      const checked = replyd(["serve", "--check-config", ...args], env);
      expect({ code: served.code, started: served.started, made: served.made }).toEqual({ code: 2, started: false, made: false });
      expect(checked.code).toBe(2);
      expect(served.err).toContain(says);
      expect(checked.err).toBe(served.err);
      expect(checked.out).toBe("");
      expect(served.err + checked.err).not.toContain(key);
    });

  test("what passes --check-config, serve starts with (an admin key from the environment is named by both)", async () => {
    const env = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123", REPLYD_WX_AESKEY: AESKEY, REPLYD_WX_APPID: "wx0123456789abcdef" };
    const checked = replyd(["serve", "--check-config", "--wx-mode", "compatible"], env);
    expect(checked.code).toBe(0);
    expect(checked.err).toContain('admin key "ops" taken from this environment');
    const s = await spawnServer(["--data", "started", "--host", "127.0.0.1", "--port", "0", "--wx-mode", "compatible"], { cwd: tmp.dir, env, cleanups, ms: 15_000 });
    try {
      expect(s.listening).toMatchObject({ event: "listening", environment_key: "ops" });
    } finally {
      await s.stop();
    }
    expect(s.proc.exitCode).toBe(0);
    expect(s.err()).toContain('admin key "ops" taken from this environment');
  });
});

describe("a config file that is not TOML", () => {
  const cases: [string, string, number, string | null][] = [
    ["an unquoted key", 'port = 8081\nai-key = sk-unquoted-0123456789abcdef\n', 2, "ai-key"],
    ["an unquoted AppSecret with a space", `wx-appid = "wx0123456789abcdef"\nwx-secret = ${APPSECRET} x\n`, 2, "wx-secret"],
    ["an unterminated string", 'wx-token = "tokenNeverClosed42\nport = 1\n', 1, "wx-token"],
    ["a bad escape in a secret", 'wx-aeskey = "abc\\qdefSecretAfterEscape"\n', 1, "wx-aeskey"],
    ["text after a value", 'port = 8081 sk-after-the-value-0123\n', 1, "port"],
    ["a key pasted on a line of its own", 'port = 8081\n\nsk-pasted-alone-0123456789\n', 3, null],
    ["a key given twice", 'ai-key = "sk-first-0123456789"\nai-key = "sk-second-0123456789"\n', 2, "ai-key"],
  ];
  for (const [what, text, line, key] of cases)
    test(`${what}: refused naming line ${line}${key ? ` and "${key}"` : ""}, never printing the value (serve and --check-config)`, () => {
      const path = config(`bad-${what.replace(/\W+/g, "-")}.toml`, text, 0o600);
      // Every piece of every value (or of a line without one), as long as a word.
      const values = text.split("\n").flatMap((l) => (l.includes("=") ? l.slice(l.indexOf("=") + 1) : l).split(/[^A-Za-z0-9]+/).filter((p) => p.length >= 6));
      for (const r of [serve("never", ["--config", path]), replyd(["serve", "--config", path, "--check-config"])]) {
        expect(r.code).toBe(2);
        expect(r.err).toContain(`${path}: line ${line}${key ? ` ("${key}")` : ""} is not valid TOML`);
        const said = (r.err + r.out).replaceAll(path, "FILE");
        for (const piece of values) expect(said).not.toContain(piece);
      }
    });
});
