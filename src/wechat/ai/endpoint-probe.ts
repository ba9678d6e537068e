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
/**
 * How long health waits for a new look before it answers with the last one: an endpoint that went
 * down refuses at once and is shown down on that request, not on the next one; one that hangs
 * holds health up this long at most.
 */
const FRESH_WAIT_MS = 1000;

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
   * Health waits for the first look; after it, for a new look FRESH_WAIT_MS at most, then answers
   * with the last one while it is under way, so a hanging endpoint never holds health up long.
   */
  async endpointNow(): Promise<EndpointNow> {
    const now = this.clock.monotonic();
    if (!this.looking && (this.lookedAt === null || now - this.lookedAt >= PROBE_MS)) {
      this.lookedAt = now;
      const look = probe(this.endpoint, new Date(this.clock.now()).toISOString(), 3000, this.fetchFn).then((f) => {
        this.found = f;
        this.looking = null;
        return f;
      });
      this.looking = look;
      if (this.found) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const found = this.found;
        const fresh = await Promise.race([look, new Promise<EndpointNow>((r) => (timer = setTimeout(() => r(found), FRESH_WAIT_MS)))]);
        clearTimeout(timer);
        return fresh;
      }
    }
    return this.found ?? (await (this.looking as Promise<EndpointNow>));
  }
}
