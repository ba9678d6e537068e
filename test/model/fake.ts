/**
 * A local fake of an OpenAI-compatible chat-completions endpoint (POST /v1/chat/completions), as
 * the API reference documents it: a `chat.completion` object with `choices[0].message.content` and
 * `usage`, or with `stream: true` (or `mode.stream`) `chat.completion.chunk` events as server-sent
 * events ending in `data: [DONE]`; errors as `{"error": {"message", "type", "code"}}` with 401 for
 * a wrong key. What it answers is the test's: a function of the request, slow, failing, streaming,
 * stalling, or hostile.
 */

export interface FakeRequest {
  authorization: string | null;
  body: { model: string; messages: { role: string; content: string }[]; stream?: boolean };
}

export interface FakeMode {
  /** What the model writes (default: the first source's first sentence, citing [1]). */
  answer?: (r: FakeRequest) => string;
  /** Before the answer starts. */
  delayMs?: number;
  /** Before GET /v1/models (health's look at the endpoint) is answered. */
  probeDelayMs?: number;
  /** Answer with this HTTP status and an error object. */
  status?: number;
  /** Answer 200 with this body as it is (not JSON, a proxy's page, bytes that are not UTF-8 …). */
  raw?: string | Uint8Array;
  /** Stream the answer as server-sent events, in pieces of `chunk` characters. */
  stream?: boolean;
  chunk?: number;
  /** Stream the first events, then never end. */
  stall?: boolean;
  /** Stream the events, then close without [DONE] or a finish_reason. */
  cut?: boolean;
  /** Leave usage out. */
  noUsage?: boolean;
  /** Answer with a redirect to this address. */
  redirect?: string;
}

export interface FakeModel {
  url: string;
  /** The base address as replyd takes it (…/v1). */
  base: string;
  requests: FakeRequest[];
  /** GET /v1/models requests (health's look at the endpoint), with the authorization each carried. */
  probes: (string | null)[];
  mode: FakeMode;
  stop(): void;
}

/** The first sentence of source [1], as a model that follows the instructions would answer. */
export const citeFirst = (r: FakeRequest): string => {
  const user = r.body.messages.find((m) => m.role === "user")?.content ?? "";
  const block = /\[1\] [^\n]*\nLink: [^\n]*\n([^\n]*)/.exec(user);
  const sentence = /^[^。！？.!?]*[。！？.!?]?/.exec(block?.[1] ?? "")?.[0] ?? "";
  return sentence ? `${sentence}[1]` : "NO_ANSWER";
};

export function startFakeModel(key = "sk-test-0123456789abcdefghij", mode: FakeMode = {}): FakeModel {
  const requests: FakeRequest[] = [];
  const probes: (string | null)[] = [];
  const state = { mode };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method === "GET" && url.pathname === "/v1/models") {
        probes.push(req.headers.get("authorization"));
        if (state.mode.probeDelayMs) await Bun.sleep(state.mode.probeDelayMs);
      }
      if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") return Response.json({ error: { message: "not found", type: "invalid_request_error" } }, { status: 404 });
      const m = state.mode;
      const authorization = req.headers.get("authorization");
      const body = (await req.json()) as FakeRequest["body"];
      const r = { authorization, body };
      requests.push(r);
      if (m.delayMs) await Bun.sleep(m.delayMs);
      if (key && authorization !== `Bearer ${key}`)
        return Response.json({ error: { message: `Incorrect API key provided: ${authorization?.slice(7) ?? ""}`, type: "invalid_request_error", code: "invalid_api_key" } }, { status: 401 });
      if (m.redirect) return new Response(null, { status: 307, headers: { location: m.redirect } });
      if (m.status) return Response.json({ error: { message: `fake failure ${m.status}`, type: "server_error" } }, { status: m.status });
      if (m.raw !== undefined) return new Response(m.raw, { headers: { "content-type": "text/html" } });
      const text = (m.answer ?? citeFirst)(r);
      const usage = m.noUsage ? {} : { usage: { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: text.length, total_tokens: 0 } };
      if (!m.stream && !body.stream)
        return Response.json({ id: "chatcmpl-fake", object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], ...usage });
      const size = m.chunk ?? 8;
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      const event = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
      const chunk = (delta: object, finish: string | null) => ({ id: "chatcmpl-fake", object: "chat.completion.chunk", model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
      const stream = new ReadableStream<string>({
        async pull(controller) {
          controller.enqueue(event(chunk({ role: "assistant" }, null)));
          for (const p of pieces) {
            controller.enqueue(event(chunk({ content: p }, null)));
            await Bun.sleep(1);
          }
          if (m.stall) return new Promise(() => {});
          if (m.cut) return controller.close();
          controller.enqueue(event(chunk({}, "stop")));
          if (!m.noUsage) controller.enqueue(event({ id: "chatcmpl-fake", object: "chat.completion.chunk", choices: [], ...usage }));
          controller.enqueue("data: [DONE]\n\n");
          controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    base: `http://127.0.0.1:${server.port}/v1`,
    requests,
    probes,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMode) {
      state.mode = m;
    },
    stop: () => server.stop(true),
  };
}
