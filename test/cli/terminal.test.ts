/** What the client writes to a terminal: control sequences only where the terminal takes them. */
import { expect, test } from "bun:test";
import { takesEscapes } from "../../src/cli/io.ts";

test("a terminal takes escapes unless it is not one, says it is dumb or names nothing, or is Windows' console", () => {
  expect(takesEscapes("linux", { TERM: "xterm-256color" }, true)).toBe(true);
  expect(takesEscapes("darwin", { TERM: "xterm-256color" }, true)).toBe(true);
  expect(takesEscapes("linux", { TERM: "xterm-256color" }, false)).toBe(false);
  expect(takesEscapes("linux", { TERM: "dumb" }, true)).toBe(false);
  expect(takesEscapes("linux", {}, true)).toBe(false);
  expect(takesEscapes("win32", { TERM: "xterm" }, true)).toBe(false);
});

// A question carries what the server holds (rm --purge names the article's title): a title the
// server takes may hold a bidi override, which would reorder the very line answered "y" to.
test("a question asked at the terminal is escaped as everything printed is: a bidi override in it is written as \\u202e", async () => {
  const child = Bun.spawn([process.execPath, "-e", `const { processIO } = await import(${JSON.stringify(`${import.meta.dir}/../../src/cli/io.ts`)}); const a = await processIO().ask("Remove x (\\"ab\\u202ecd\\")? [y/N] "); process.stdout.write("answer:" + a);`], { stdin: new TextEncoder().encode("n\n"), stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  expect(await child.exited).toBe(0);
  expect(out).toBe("answer:n");
  expect(err).toBe('Remove x ("ab\\u202ecd")? [y/N] ');
  expect(err).not.toContain("\u202e");
});
