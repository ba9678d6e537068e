/**
 * An OpenAI-compatible chat-completions endpoint (docs/answers.md "Connecting a model"): POST
 * `BASE/chat/completions` with `{model, messages}` and `Authorization: Bearer KEY`, as OpenAI,
 * DeepSeek, Qwen's compatible mode, Ollama and vLLM take it. The answer may be one JSON object or
 * a server-sent event stream (some servers stream whatever was asked); both are read bounded in
 * bytes and in time, and every way it can go wrong is one ModelFailure with a kind health counts.
 * The key never appears in a failure's message, in any spelling (llm/output/secrets.ts), and
 * an answer that is not UTF-8 is a failure, never text with U+FFFD in it.
 */
import { mask } from "./output/secrets.ts";

export interface ModelEndpoint {
  /** The base URL as the SDKs take it, ending in /v1 (no trailing slash). */
  base: string;
  model: string;
  /** REPLYD_AI_KEY; a local server may need none. */
  key?: string;
  /** The whole call, from the request to the last byte. */
  timeoutMs: number;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface Usage {
  prompt: number;
  completion: number;
}

export interface Completion {
  text: string;
  /** As the endpoint reported it; null when it did not. */
  usage: Usage | null;
  ms: number;
}

export const FAILURE_KINDS = ["refused", "timeout", "http_error", "not_json", "not_utf8", "too_large", "empty", "unfinished"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export class ModelFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelFailure";
  }
}

/** An answer of a few hundred words is a few KiB; past this it is not one. */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** Where the endpoint is, for health and logs: its host and path, never a query or credentials. */
export function endpointName(base: string): string {
  try {
    const u = new URL(base);
    return `${u.host}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return "(unparsable address)";
  }
}

/** A failure's message with the key hidden, whole or in part, however the endpoint spelled it. */
const hide = (text: string, key: string | undefined) => (key ? mask(text.replaceAll(key, "…"), [key]) : text);

/**
 * `stop`: the caller gives up (a shutdown), counted as a time-out. Every failure leaves through
 * here with its message masked: a body or a stream event quoting the key is quoted without it.
 */
export async function complete(endpoint: ModelEndpoint, messages: ChatMessage[], fetchImpl: typeof fetch = fetch, stop?: AbortSignal): Promise<Completion> {
  try {
    return await call(endpoint, messages, fetchImpl, stop);
  } catch (e) {
    const f = e instanceof ModelFailure ? e : new ModelFailure("refused", (e as Error).message);
    throw new ModelFailure(f.kind, hide(f.message, endpoint.key), f.status);
  }
}

async function call(endpoint: ModelEndpoint, messages: ChatMessage[], fetchImpl: typeof fetch, stop?: AbortSignal): Promise<Completion> {
  const started = performance.now();
  const timeout = stop ? AbortSignal.any([AbortSignal.timeout(endpoint.timeoutMs), stop]) : AbortSignal.timeout(endpoint.timeoutMs);
  const fail = (kind: FailureKind, message: string, status?: number): never => {
    throw new ModelFailure(kind, message, status);
  };
  let res: Response;
  try {
    res = await fetchImpl(`${endpoint.base}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}) },
      body: JSON.stringify({ model: endpoint.model, messages }),
      signal: timeout,
      // A redirect would carry the key to wherever it points.
      redirect: "manual",
    });
  } catch (e) {
    if (timeout.aborted) fail("timeout", `no answer within ${endpoint.timeoutMs} ms`);
    return fail("refused", `the endpoint could not be reached: ${(e as Error).message}`);
  }
  let bytes: Buffer;
  try {
    bytes = await readBounded(res, timeout);
  } catch (e) {
    if (e instanceof ModelFailure) throw e;
    if (timeout.aborted) fail("timeout", `the answer did not end within ${endpoint.timeoutMs} ms`);
    return fail("refused", `the answer was cut off: ${(e as Error).message}`);
  }
  if (res.status < 200 || res.status > 299) fail("http_error", `the endpoint answered HTTP ${res.status}: ${errorText(bytes.toString("utf8"))}`, res.status);
  let raw: string;
  try {
    raw = UTF8.decode(bytes);
  } catch {
    return fail("not_utf8", "the answer is not UTF-8 text");
  }
  const streamed = (res.headers.get("content-type") ?? "").includes("text/event-stream") || /^\s*data:/.test(raw);
  const { text, usage } = streamed ? readStream(raw) : readJson(raw);
  if (!text.trim()) fail("empty", "the endpoint's answer holds no text");
  return { text, usage, ms: Math.round(performance.now() - started) };
}

async function readBounded(res: Response, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > MAX_ANSWER_BYTES) throw new ModelFailure("too_large", `the answer is ${declared} bytes (at most ${MAX_ANSWER_BYTES} are read)`);
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const abort = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", abort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw new ModelFailure("timeout", "the answer did not end in time");
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        abort();
        throw new ModelFailure("too_large", `the answer passed ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener("abort", abort);
  }
  return Buffer.concat(chunks);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const errorText = (raw: string): string => {
  try {
    const v = JSON.parse(raw) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof v.error === "string" ? v.error : (v.error?.message ?? v.message);
    if (typeof m === "string") return m.slice(0, 200);
  } catch {}
  return raw.replace(/\s+/g, " ").slice(0, 120) || "(no body)";
};

const usageOf = (u: unknown): Usage | null => {
  const o = u as { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  if (!o || typeof o !== "object") return null;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
  return { prompt: n(o.prompt_tokens), completion: n(o.completion_tokens) };
};

function readJson(raw: string): { text: string; usage: Usage | null } {
  let v: { choices?: { message?: { content?: unknown } }[]; usage?: unknown };
  try {
    v = JSON.parse(raw) as typeof v;
  } catch {
    throw new ModelFailure("not_json", `the answer is not JSON: ${raw.replace(/\s+/g, " ").slice(0, 80)}`);
  }
  // No choice at all (a content filter's answer, "choices": []) is an empty answer, not a malformed one.
  if (Array.isArray(v?.choices) && v.choices.length === 0) throw new ModelFailure("empty", "the endpoint's answer holds no choice (\"choices\": [])");
  const content = Array.isArray(v?.choices) ? v.choices[0]?.message?.content : undefined;
  if (typeof content !== "string") throw new ModelFailure("not_json", "the answer is JSON without choices[0].message.content");
  return { text: content, usage: usageOf(v.usage) };
}

/** `data:` lines of chat.completion.chunk objects; complete only with `[DONE]` or a finish_reason. */
function readStream(raw: string): { text: string; usage: Usage | null } {
  let text = "";
  let usage: Usage | null = null;
  let finished = false;
  for (const line of raw.split(/\r?\n/)) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "[DONE]") {
      finished = true;
      continue;
    }
    let chunk: { choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[]; usage?: unknown };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch {
      throw new ModelFailure("not_json", `a streamed event is not JSON: ${data.slice(0, 80)}`);
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (typeof choice?.delta?.content === "string") text += choice.delta.content;
    if (typeof choice?.finish_reason === "string") finished = true;
    usage = usageOf(chunk.usage) ?? usage;
  }
  if (!finished) throw new ModelFailure("unfinished", "the stream ended before the answer was complete");
  return { text, usage };
}

/** What a look at the endpoint found: `up` it answers, `key_refused` it refuses the key, `down` it cannot be reached or fails. */
export interface EndpointNow {
  state: "up" | "key_refused" | "down";
  detail: string;
  checked_at: string;
}

/**
 * Whether the endpoint answers now, for health: GET BASE/models with the key, bounded by
 * `timeoutMs`. Any answer but 401/403 or a 5xx means it is up (a server without /models answers
 * 404); nothing read past the status.
 */
export async function probe(endpoint: ModelEndpoint, nowIso: string, timeoutMs = 3000, fetchImpl: typeof fetch = fetch): Promise<EndpointNow> {
  const at = { checked_at: nowIso };
  try {
    const res = await fetchImpl(`${endpoint.base}/models`, {
      headers: endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    void res.body?.cancel().catch(() => {});
    if (res.status === 401 || res.status === 403) return { state: "key_refused", detail: `it answers HTTP ${res.status} to the key`, ...at };
    if (res.status >= 500) return { state: "down", detail: `it answers HTTP ${res.status}`, ...at };
    return { state: "up", detail: `it answers (HTTP ${res.status})`, ...at };
  } catch (e) {
    const timedOut = (e as Error).name === "TimeoutError";
    return { state: "down", detail: hide(timedOut ? `no answer within ${timeoutMs} ms` : `it cannot be reached: ${(e as Error).message}`, endpoint.key), ...at };
  }
}
