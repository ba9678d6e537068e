/** Everything a command touches outside itself, passed in so commands run in tests without a terminal. */
export interface IO {
  out(text: string): void;
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

export function processIO(): IO {
  return {
    out: (t) => void process.stdout.write(t.endsWith("\n") ? t : t + "\n"),
    err: (t) => void process.stderr.write(t.endsWith("\n") ? t : t + "\n"),
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
