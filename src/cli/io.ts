import { write } from "../output.ts";

/** Everything a command touches outside itself, passed in so commands run in tests without a terminal. */
export interface IO {
  out(text: string): void;
  /** Bytes to stdout as they are, unescaped (a document written with `backup -o -`). */
  raw(bytes: Uint8Array): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stderr is a terminal (progress) and stdin can answer a question. */
  interactive: boolean;
  ask(question: string): Promise<string>;
  fetch: typeof fetch;
  /** The client's clock (ms); signing timestamps come from it. */
  now(): number;
}

/**
 * Control characters a terminal would act on (C0 but tab and line feed, DEL, C1) and the bidi
 * controls that reorder what is shown, written as \uXXXX: server strings (follower texts, titles,
 * error messages) must not set the window title, clear the screen or write the clipboard. The
 * escape is valid inside JSON strings too, so --json output stays parseable.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));

export function processIO(): IO {
  // Everything printed passes here: the one place where the terminal is protected.
  const line = (t: string) => printable(t.endsWith("\n") ? t : t + "\n");
  return {
    out: (t) => write(process.stdout, line(t)),
    raw: (bytes) => write(process.stdout, bytes),
    err: (t) => write(process.stderr, line(t)),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stderr.isTTY && process.stdin.isTTY),
    ask: async (question) => {
      process.stderr.write(question);
      for await (const line of console) return line;
      return "";
    },
    fetch: globalThis.fetch,
    now: () => Date.now(),
  };
}

/** Pads to a width in terminal columns: a Chinese character takes two, as the terminal shows it. */
export const padColumns = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - Bun.stringWidth(text)));
