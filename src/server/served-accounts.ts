/**
 * The life of the accounts a server serves: each account's store and log pruning started with it,
 * and, on a reload, accounts opened, rebuilt and removed (reload.ts decides what may change). An
 * account replaced or removed is drained before it is closed: a message it received is answered
 * and logged by it, once, and its store closed only after.
 */
import { accountSettings, type DeclaredAccount } from "../account/settings.ts";
import type { Account } from "../account/account.ts";
import { BackendError, type Backend } from "../store/backend.ts";
import type { App } from "./app.ts";
import type { LogPrune } from "./log-prune.ts";
import { refusedReload, type ReloadOutcome, type reloadPlan } from "./reload.ts";

export interface ServedAccountsParts {
  app: App;
  /** The stores opened at start, in app.accounts' order. */
  backends: Backend[];
  /** An added account's store, in its folder. */
  openStore(name: string): Promise<Backend>;
  startPrune(account: Account): Promise<LogPrune>;
  /** The listener's callback routes made again from app.accounts. */
  reroute(): void;
  emit(fields: Record<string, unknown>): void;
  /** The accounts come from [accounts] (log lines then name theirs). */
  declared: boolean;
}

export class ServedAccounts {
  private readonly stores: Map<string, Backend>;
  private readonly prunings = new Map<string, LogPrune>();
  /** Messages that could not be logged by the stores of accounts removed so far. */
  private lostInReloads = 0;

  constructor(private readonly parts: ServedAccountsParts) {
    this.stores = new Map(parts.app.accounts.map((a, i) => [a.name, parts.backends[i] as Backend]));
  }

  async startPrunes(): Promise<void> {
    for (const account of this.parts.app.accounts) this.prunings.set(account.name, await this.parts.startPrune(account));
  }

  /** Applies a plan reloadPlan made: the added accounts' folders opened first, so one that cannot be opened changes nothing. */
  async apply(plan: ReturnType<typeof reloadPlan>): Promise<ReloadOutcome> {
    const opened: [DeclaredAccount, Backend][] = [];
    try {
      for (const a of plan.added) opened.push([a, await this.parts.openStore(a.name)]);
    } catch (e) {
      for (const [, b] of opened) await b.close().catch(() => {});
      return refusedReload(e instanceof BackendError ? e.message : `an account's folder could not be opened: ${(e as Error).message}`);
    }
    const { app, emit } = this.parts;
    const set = app.accountSet;
    for (const [a, b] of opened) {
      this.stores.set(a.name, b);
      const account = await set.add({ read: b.read, write: b.write, cluster: b.cluster ?? null }, accountSettings(a.wechat, a.ai, a.name));
      account.start();
      this.prunings.set(a.name, await this.parts.startPrune(account));
    }
    const replaced: Account[] = [];
    for (const a of plan.changed) {
      replaced.push(await set.replace(accountSettings(a.wechat, a.ai, a.name)));
      set.get(a.name)?.start();
    }
    const removed = plan.removed.map((a) => set.remove(a.name));
    this.parts.reroute();
    for (const a of [...plan.added, ...plan.changed])
      if (!a.wechat.token) emit({ level: "warn", msg: `no wx-token in [accounts.${a.name}]: its callback (${a.wechat.path}) answers 503 until one is set` });
    // What was in flight is answered by the account it reached, before that one is closed.
    await Promise.all(replaced.map((old) => this.retire(old)));
    for (const old of removed) {
      await this.retire(old);
      this.prunings.get(old.name)?.stop();
      this.prunings.delete(old.name);
      this.lostInReloads += await this.closeStore(old.name);
    }
    const names = (list: DeclaredAccount[]) => list.map((a) => a.name);
    return { ok: true, added: names(plan.added), changed: names(plan.changed), removed: names(plan.removed), unchanged: names(plan.unchanged) };
  }

  /** A stopping server: every account's pruning stopped, token renewal stopped, store closed; answers the messages lost. */
  async close(): Promise<number> {
    for (const p of this.prunings.values()) p.stop();
    for (const account of this.parts.app.accounts) account.close();
    let lost = this.lostInReloads;
    for (const name of [...this.stores.keys()]) lost += await this.closeStore(name);
    return lost;
  }

  /** An account replaced or removed: its messages in flight answered (and logged) by it, then its held deliveries and token renewal stopped. */
  private async retire(old: Account): Promise<void> {
    await old.callback.drained();
    await old.release();
    old.close();
  }

  private async closeStore(name: string): Promise<number> {
    const b = this.stores.get(name) as Backend;
    this.stores.delete(name);
    const closed = await b.close();
    const whose = this.parts.declared ? { account: name } : {};
    this.parts.emit({ event: "stopped", ...whose, ...(closed.database ? { database: closed.database } : {}), ...(closed.kept ? { messages_kept_in: closed.keptIn, messages_kept: closed.kept } : {}), ...(closed.lost ? { messages_lost: closed.lost } : {}) });
    return closed.lost;
  }
}
