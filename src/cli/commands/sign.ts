import { resolve } from "node:path";
import { canonicalQuery, fileParamValue, formatTs, newNonce, signRequest, type Param } from "../../sign.ts";
import type { CommandContext } from "../context.ts";
import { resolveConfig } from "../config.ts";
import { CLIError, usage } from "../errors.ts";
import { readLocal } from "../files.ts";
import { defineCommand } from "../command.ts";

const shq = (s: string) => (/^[A-Za-z0-9_\-.:/@=%,+]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Prints signed parameters for a request sent by another tool (curl, httpie, a script). */
export async function sign(c: CommandContext): Promise<void> {
  const [methodRaw, path, ...rest] = c.args;
  if (!methodRaw || !path) throw usage("sign needs METHOD and PATH: replyd sign GET /api/cli [k=v …] [json@file]");
  const method = methodRaw.toUpperCase();
  if (!["GET", "POST", "PUT", "DELETE"].includes(method)) throw usage("METHOD must be GET, POST, PUT or DELETE");
  if (!path.startsWith("/api/cli")) throw usage("PATH starts with /api/cli");
  // The key as every client command finds it (flags, environment, profile) when a profile is named or
  // a part is missing; with both given, no server address is needed (curl's may stay $REPLYD_URL).
  let appkey = c.str("--appkey") ?? c.io.env.REPLYD_APPKEY;
  let secret = c.str("--secret") ?? c.io.env.REPLYD_SECRET;
  let profileUrl: string | undefined;
  let profileAccount: string | undefined;
  if (!appkey || !secret || c.str("--profile") !== undefined || c.io.env.REPLYD_PROFILE !== undefined) {
    let config;
    try {
      config = resolveConfig({ url: c.str("--url"), appkey: c.str("--appkey"), secret: c.str("--secret"), profile: c.str("--profile"), account: c.str("--account") }, c.io);
    } catch (e) {
      // Nothing kept to sign with: sign needs no address, so the message asks only for the key.
      if (e instanceof CLIError && e.code === "missing_config") throw new CLIError("missing_config", "set --appkey (REPLYD_APPKEY) and --secret (REPLYD_SECRET), or use a profile (--profile; replyd profile add)", 2);
      throw e;
    }
    ({ appkey, secret } = config);
    profileUrl = config.url;
    profileAccount = config.account;
  }

  const fields: Param[] = [];
  const files: { name: string; file: string; md5: string }[] = [];
  for (const arg of rest) {
    const eq = arg.indexOf("=");
    const at = arg.indexOf("@");
    if (at > 0 && (eq < 0 || at < eq)) {
      if (method !== "POST" && method !== "PUT") throw usage("file parts go with POST or PUT");
      const name = arg.slice(0, at);
      const file = arg.slice(at + 1);
      files.push({ name, file: resolve(c.io.cwd, file), md5: fileParamValue(readLocal(c.io, file).bytes) });
    } else if (eq > 0) fields.push([arg.slice(0, eq), arg.slice(eq + 1)]);
    else throw usage(`"${arg}" is neither k=v nor name@file`);
  }
  // The account as every client command sends it (--account, REPLYD_ACCOUNT), unless given as a field.
  const account = c.str("--account") ?? c.io.env.REPLYD_ACCOUNT ?? profileAccount;
  if (account !== undefined && !fields.some(([k]) => k === "account")) fields.push(["account", account]);
  const params: Param[] = [...fields, ["appkey", appkey], ["ts", c.str("--ts") ?? formatTs(Date.now())], ["nonce", c.str("--nonce") ?? newNonce()]];
  const signed: Param[] = [...params, ...files.map((f) => [f.name, f.md5] as Param)];
  const { canonical, sign } = signRequest({ method, path, params: signed, secret });
  const all: Param[] = [...params, ["sign", sign]];
  const query = canonicalQuery(all);
  const base = (c.str("--url") ?? c.io.env.REPLYD_URL ?? profileUrl ?? "$REPLYD_URL").replace(/\/+$/, "");
  const url = base + path;

  if (c.json) return c.io.out(JSON.stringify({ method, path, params: all, files, canonical, sign, query }, null, 2));
  if (c.flags.curl) {
    if (method === "GET" || method === "DELETE") return c.io.out(`curl -sS -X ${method} "${url}?${query}"`);
    if (!files.length) return c.io.out(`curl -sS -X ${method} --data ${shq(query)} "${url}"`);
    const parts = [...all.map(([k, v]) => `-F ${shq(`${k}=${v}`)}`), ...files.map((f) => `-F ${shq(`${f.name}=@${f.file}`)}`)];
    return c.io.out(`curl -sS -X ${method} ${parts.join(" ")} "${url}"`);
  }
  if (c.flags.httpie) {
    const form = method === "GET" || method === "DELETE" ? "" : files.length ? "-f " : "-f ";
    const sep = method === "GET" || method === "DELETE" ? "==" : "=";
    const parts = [...all.map(([k, v]) => shq(`${k}${sep}${v}`)), ...files.map((f) => shq(`${f.name}@${f.file}`))];
    return c.io.out(`http ${form}${method} "${url}" ${parts.join(" ")}`);
  }
  c.io.out(query);
  if (c.flags.verbose) c.io.err(`canonical string:\n${canonical}`);
}

export const signCommand = defineCommand({
  usage: "sign <method> <path> [...params]",
  summary: "print signed parameters for curl or httpie (k=v, name@file)",
  description: "Prints the signed parameters of a request for another tool to send: the query string, or a whole curl or httpie command. Fields as k=v, file parts as name@file.",
  examples: ["replyd sign GET /api/cli --curl", "replyd sign POST /api/cli json@articles.json --httpie"],
  options: [
    { flags: "--url <url>", help: "the server's address for --curl/--httpie (env REPLYD_URL)" },
    { flags: "--appkey <appkey>", help: "admin key id (env REPLYD_APPKEY)" },
    { flags: "--secret <secret>", help: "admin key secret (env REPLYD_SECRET)" },
    { flags: "--account <name>", help: "sign account=NAME too, on a server with several accounts (env REPLYD_ACCOUNT)" },
    { flags: "--profile <name>", help: "the key (and address) of a kept profile (env REPLYD_PROFILE): replyd profile add" },
    { flags: "--curl", help: "print a curl command" },
    { flags: "--httpie", help: "print an httpie command" },
    { flags: "--ts <ts>", help: "sign with this ts instead of now" },
    { flags: "--nonce <nonce>", help: "sign with this nonce instead of a fresh one" },
    { flags: "--verbose", help: "also print the canonical string on stderr" },
  ],
  local: true,
  run: sign,
});
