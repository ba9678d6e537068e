/** Each client command is declared beside its handler (src/cli/command.ts): a paragraph and examples in its own --help. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CLIENT_OPTIONS } from "../../src/cli/command.ts";
import { COMMANDS, run } from "../../src/cli/index.ts";
import { captureIO } from "../helpers.ts";

test("every command has a summary, a paragraph and examples of itself", () => {
  for (const spec of COMMANDS) {
    const name = spec.usage.split(" ")[0] as string;
    expect({ name, summary: spec.summary.length > 5, description: spec.description.length > 60 }).toEqual({ name, summary: true, description: true });
    expect(spec.examples.length).toBeGreaterThan(0);
    for (const example of spec.examples) expect(example).toMatch(new RegExp(`(^|\\s)replyd ${name}( |$)`));
  }
  expect(new Set(COMMANDS.map((c) => c.usage.split(" ")[0])).size).toBe(COMMANDS.length);
});

test("a command's --help shows its paragraph, its options and its examples", () => {
  const help = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), "backup", "--help"]).stdout.toString();
  const backup = COMMANDS.find((c) => c.usage.startsWith("backup "));
  expect(help).toContain(backup?.description as string);
  expect(help).toContain("-o, --output <file>");
  expect(help).toContain("$ replyd backup all -o - | gzip > all.json.gz");
});

describe("what a new operator types first (issue 35 D)", () => {
  const cli = async (...argv: string[]) => {
    const io = captureIO({});
    const code = await run(argv, io);
    return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
  };

  test("an unknown option is named as typed, with the closest the command takes and where they are listed", async () => {
    expect(await cli("serve", "--max-uploads", "3")).toEqual({ code: 2, out: "", err: "replyd: unknown option --max-uploads for serve; did you mean --max-upload? (replyd serve --help lists them)" });
    expect((await cli("ls", "--limt", "3")).err).toBe("replyd: unknown option --limt for ls; did you mean --limit? (replyd ls --help lists them)");
    // Nothing close: no guess.
    expect((await cli("ls", "--colour-scheme")).err).toBe("replyd: unknown option --colour-scheme for ls (replyd ls --help lists them)");
  });

  test("--ai-key as a flag says where the key goes", async () => {
    const r = await cli("serve", "--ai-key", "sk-secret-value");
    expect(r.code).toBe(2);
    expect(r.err).toContain("--ai-key is never taken as a flag");
    expect(r.err).toContain("REPLYD_AI_KEY");
    expect(r.err).not.toContain("sk-secret-value");
  });

  // cac prints help itself (console.log): read through a process.
  const helpOf = (...argv: string[]) => {
    const p = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), ...argv]);
    return { code: p.exitCode, out: p.stdout.toString() };
  };

  test("replyd help and replyd help COMMAND show the help", () => {
    expect(helpOf("help")).toMatchObject({ code: 0, out: expect.stringContaining("Commands:") });
    expect(helpOf("help", "ls")).toMatchObject({ code: 0, out: expect.stringContaining("$ replyd ls") });
    expect(helpOf("help", "bogus")).toMatchObject({ code: 2, out: "" });
  });

  test("serve --help, keys --help and profile --help list only their own options; a client command lists the client's", () => {
    for (const local of ["serve", "keys", "profile"]) {
      const h = helpOf(local, "--help").out;
      expect(h).toContain(`$ replyd ${local}`);
      const own = (COMMANDS.find((c) => c.usage.startsWith(`${local} `) || c.usage === local)?.options ?? []).map((o) => o.flags);
      for (const client of CLIENT_OPTIONS.map((o) => o.flags).filter((f) => !own.includes(f))) expect({ local, client, has: h.includes(client) }).toEqual({ local, client, has: false });
    }
    const ls = helpOf("ls", "--help").out;
    for (const client of ["--url", "--appkey", "--secret", "--profile", "--timeout"]) expect(ls).toContain(client);
  });

  test("--help: the whole list names every client option and each command's help; a --no- option claims no default", () => {
    const all = helpOf("--help").out;
    expect(all).toContain("Options of every command that asks a server:\n  --url <url>");
    for (const o of CLIENT_OPTIONS) expect(all).toContain(o.flags);
    expect(all).toContain("replyd help COMMAND, or replyd COMMAND --help");
    const menu = helpOf("menu", "--help").out;
    expect(menu).toMatch(/--no-push +with set: store the menu without pushing it\n/);
    // A command's own help lists the client options with its own, not the whole list's section.
    expect(menu).not.toContain("Options of every command");
  });
});
