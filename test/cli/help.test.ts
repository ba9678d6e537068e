/** Each client command is declared beside its handler (src/cli/command.ts): a paragraph and examples in its own --help. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli/index.ts";

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
