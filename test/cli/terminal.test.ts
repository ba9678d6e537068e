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
