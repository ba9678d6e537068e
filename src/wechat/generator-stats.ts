/** What health shows of generated answers (docs/answers.md "Health"): never the endpoint's key. */
import { endpointName, FAILURE_KINDS, type ModelEndpoint, type Usage } from "../model-client.ts";
import { REFUSALS } from "../model-output/check.ts";
import { CAPS_REACHED, type Caps, type CapsUse } from "./model-caps.ts";

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export class GeneratorStats {
  /** Calls made since start, and what became of them. */
  calls = 0;
  inFlight = 0;
  readonly failed = zeros(FAILURE_KINDS);
  readonly refused = zeros(REFUSALS);
  readonly capped = zeros(CAPS_REACHED);
  /** What became of answers that passed: sent on a delivery, by customer-service message, kept for the next message (and sent so), or shown to an operator's `ask --generate`. */
  readonly delivery = { reply: 0, customer_service: 0, pending: 0, next_message: 0, ask: 0 };
  /** Last deliveries answered with the retrieval reply while the model still wrote. */
  lastDeliveries = 0;
  readonly tokens = { prompt: 0, completion: 0, unreported: 0 };

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly caps: Caps,
  ) {}

  called(outcome: string, usage: Usage | null): void {
    this.calls++;
    if (usage) {
      this.tokens.prompt += usage.prompt;
      this.tokens.completion += usage.completion;
    } else if (!outcome.startsWith("failed:")) this.tokens.unreported++;
    const [kind, why] = outcome.split(":") as [string, string];
    if (kind === "failed" && why in this.failed) this.failed[why as keyof typeof this.failed]++;
    if (kind === "refused" && why in this.refused) this.refused[why as keyof typeof this.refused]++;
  }

  /**
   * What became of a call whose answer passed the checks. With the failed and the refused, every
   * call is in one bucket: calls = reply + customer_service + pending + ask + failed + refused
   * (next_message counts the pending ones sent since).
   */
  delivered(outcome: string): void {
    if (outcome in this.delivery) this.delivery[outcome as keyof typeof this.delivery]++;
  }

  async report(nowMs: number): Promise<Record<string, unknown>> {
    let used: CapsUse | string;
    try {
      used = await this.caps.used(nowMs);
    } catch (e) {
      used = `unknown: ${(e as Error).message}`;
    }
    const l = this.caps.limits;
    return {
      endpoint: endpointName(this.endpoint.base),
      model: this.endpoint.model,
      timeout_s: this.endpoint.timeoutMs / 1000,
      calls: this.calls,
      in_flight: this.inFlight,
      delivered: this.delivery,
      last_deliveries_answered_by_retrieval: this.lastDeliveries,
      failed: this.failed,
      refused: this.refused,
      capped: this.capped,
      tokens: this.tokens,
      caps: {
        per_follower_hour: l.perFollower,
        per_minute: l.perMinute,
        daily: l.daily,
        concurrency: l.concurrency,
        ...(typeof used === "string" ? { used: used } : { used_24h: used.day, used_minute: used.minute, in_flight: used.inFlight }),
      },
    };
  }
}
