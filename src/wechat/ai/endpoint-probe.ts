/**
 * Whether the model's endpoint answers now, as health shows it (`endpoint_now`): a probe of the
 * endpoint (llm/client.ts probe) made at most once per PROBE_MS however often health is asked.
 * Apart from generated-answers.ts because it is health's own look at the endpoint: no follower's
 * call waits on it, and it counts nothing.
 */
import type { Clock } from "../../base/clock.ts";
import { probe, type EndpointNow, type ModelEndpoint } from "../../llm/client.ts";

/** How long what health found of the endpoint is kept: a dashboard asking every second makes one request to it in 15 s. */
const PROBE_MS = 15_000;

export class EndpointProbe {
  /** The endpoint as last looked at, and the look under way. */
  private found: EndpointNow | null = null;
  private looking: Promise<EndpointNow> | null = null;
  /**
   * When the last look began, on the injected clock's monotonic time (null before the first): the
   * wall clock stepped back would otherwise leave health on an old look for as long as the step.
   */
  private lookedAt: number | null = null;

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly clock: Clock,
    private readonly fetchFn?: typeof fetch,
  ) {}

  /**
   * Whether the endpoint answers now: looked at once per PROBE_MS however often health is asked.
   * Health waits for the first look only; after it, it answers with the last one while the next is
   * under way, so a hanging endpoint never holds health up.
   */
  async endpointNow(): Promise<EndpointNow> {
    const now = this.clock.monotonic();
    if (!this.looking && (this.lookedAt === null || now - this.lookedAt >= PROBE_MS)) {
      this.lookedAt = now;
      this.looking = probe(this.endpoint, new Date(this.clock.now()).toISOString(), 3000, this.fetchFn).then((f) => {
        this.found = f;
        this.looking = null;
        return f;
      });
    }
    return this.found ?? (await (this.looking as Promise<EndpointNow>));
  }
}
