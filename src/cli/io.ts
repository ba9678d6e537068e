import { homedir } from "node:os";
import { write } from "../base/output.ts";

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
  /** Whether the terminal on stderr takes control sequences (erasing a line): not a dumb one, not Windows' console. */
  escapes: boolean;
  ask(question: string): Promise<string>;
  /** A secret from standard input: typed without echo at a terminal, else its first line. */
  secret(question: string): Promise<string>;
  /** What the client's files are placed by: the system, and the user's home. */
  platform: NodeJS.Platform;
  home: string;
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

/** Reads one line at a terminal without echoing it; Ctrl-C stops the program. */
async function hiddenLine(question: string): Promise<string> {
  process.stderr.write(question);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((done) => {
      let typed = "";
      const onData = (chunk: Buffer) => {
        for (const c of chunk.toString("utf8")) {
          if (c === "\u0003") {
            process.stderr.write("\n");
            process.exit(130);
          }
          if (c === "\r" || c === "\n") {
            stdin.off("data", onData);
            process.stderr.write("\n");
            return done(typed);
          }
          typed = c === "\u007f" || c === "\b" ? typed.slice(0, -1) : typed + c;
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
}

/** The first line of standard input, its line end (\n or Windows' \r\n) left off. */
async function firstLine(): Promise<string> {
  const text = await Bun.stdin.text();
  return (/^[^\r\n]*/.exec(text) as RegExpExecArray)[0];
}

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
    escapes: takesEscapes(process.platform, process.env, Boolean(process.stderr.isTTY)),
    ask: async (question) => {
      // A question may carry what the server holds (rm --purge names a title): escaped as all output is.
      process.stderr.write(printable(question));
      for await (const line of console) return line.replace(/\r$/, "");
      return "";
    },
    secret: (question) => (process.stdin.isTTY ? hiddenLine(question) : firstLine()),
    platform: process.platform,
    home: homedir(),
    fetch: globalThis.fetch,
    now: () => Date.now(),
  };
}

/** Pads to a width in terminal columns: a Chinese character takes two, as the terminal shows it. */
export const padColumns = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - Bun.stringWidth(text)));

/** Whether a terminal takes control sequences: not when it is not one, says it is dumb, or is Windows' console (which may not have them turned on). */
export const takesEscapes = (platform: NodeJS.Platform, env: Record<string, string | undefined>, tty: boolean): boolean =>
  tty && platform !== "win32" && env.TERM !== "dumb" && env.TERM !== undefined && env.TERM !== "";

/** An IO that prints nothing and asks nothing: a client driven by a program (the benches, the soak). */
export const silentIO = (cwd: string): IO => ({
  out: () => {},
  raw: () => {},
  err: () => {},
  env: {},
  cwd,
  interactive: false,
  escapes: false,
  ask: async () => "",
  secret: async () => "",
  fetch,
  now: () => Date.now(),
  platform: process.platform,
  home: cwd,
});
