/**
 * One question put to the model and its answer checked (docs/answers.md "What the checks
 * refuse"): the prompt with this process's canary, the call, the checks. What a follower would be
 * sent, or why not — the same for a follower's message and for `replyd ask --generate`.
 */
import { complete, ModelFailure, type ModelEndpoint, type Usage } from "../../llm/client.ts";
import { checkOutput } from "../../llm/output/check.ts";
import { cutChars } from "../../llm/output/normalise.ts";
import { mask } from "../../llm/output/secrets.ts";
import { OUTPUT_KEPT } from "../../store/generated-log.ts";
import { instructions, promptFor, type Source } from "../../llm/prompt.ts";
import { MAX_TEXT_BYTES } from "../door/message.ts";

/** Room left in a text reply for the question quoted when an answer waits for the next message. */
export const QUOTE_ROOM = 200;

export interface ModelAnswer {
  /** `reply` when the answer passed, `refused:<check>`, `failed:<kind>`. */
  outcome: string;
  /** The checked answer, as a follower would get it; null when none passed. */
  answer: string | null;
  cited: string[];
  /** What the model wrote (its first OUTPUT_KEPT characters, any piece of the key hidden); null when the call failed. */
  output: string | null;
  usage: Usage | null;
  /** How long the call took; null when none was made (a cap kept the message from the model: metered-calls.ts). */
  ms: number | null;
  /** Why, when it failed or was refused. */
  detail: string | null;
}

export class ModelAsker {
  /** A mark of this process in the instructions: an answer holding it repeats them. */
  private readonly canary = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
  private readonly rules = instructions(this.canary);

  constructor(
    readonly endpoint: ModelEndpoint,
    private readonly fetchImpl?: typeof fetch,
  ) {}

  /** Aborts every call in flight (a shutdown). */
  private readonly stopping = new AbortController();

  stop(): void {
    this.stopping.abort();
  }

  /** Whatever is kept or shown of a call (its output, why it failed) passes here: the key leaves in no spelling. */
  private hide(text: string): string {
    return mask(text, [this.endpoint.key]);
  }

  async ask(question: string, sources: Source[]): Promise<ModelAnswer> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const c = await complete(this.endpoint, promptFor(question, sources, this.canary), this.fetchImpl, this.stopping.signal);
      const checked = checkOutput(c.text, sources, {
        secrets: this.endpoint.key ? [this.endpoint.key] : [],
        instructions: this.rules,
        canary: this.canary,
        question,
        maxBytes: MAX_TEXT_BYTES - QUOTE_ROOM,
      });
      const base = { output: this.hide(cutChars(c.text, OUTPUT_KEPT)), usage: c.usage, ms: ms() };
      return checked.ok
        ? { ...base, outcome: "reply", answer: checked.text, cited: checked.cited.map((s) => s.id), detail: null }
        : { ...base, outcome: `refused:${checked.reason}`, answer: null, cited: [], detail: this.hide(checked.detail) };
    } catch (e) {
      const f = e instanceof ModelFailure ? e : new ModelFailure("refused", (e as Error).message);
      return { outcome: `failed:${f.kind}`, answer: null, cited: [], output: null, usage: null, ms: ms(), detail: this.hide(f.message) };
    }
  }
}
