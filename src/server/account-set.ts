/**
 * The accounts a server serves, changeable while it runs (`SIGHUP`, `serve --reload`): each account
 * with its admin context and its media folder, looked up by name on every request, so that an
 * account added answers at once and one removed is found no more. Closing what an account held is
 * the caller's (serve.ts drains it first); this set only says who is served.
 */
import type { Account } from "../account/account.ts";
import type { AccountSettings } from "../account/settings.ts";
import type { ClusterPart } from "../store/backend.ts";
import type { ReadModel } from "../store/read-model.ts";
import type { Writer } from "../store/writer.ts";
import type { MediaAccount } from "./media.ts";
import type { AppContext } from "./context.ts";

export interface AccountStore {
  read: ReadModel;
  write: Writer;
  /** The account's own part of a cluster's database (several accounts on PostgreSQL), for health. */
  cluster?: ClusterPart | null;
}

export interface AccountSetParts {
  /** An account built from its store and settings (account/account.ts), carrying over `predecessor`'s state. */
  assemble(store: AccountStore, settings: AccountSettings, predecessor?: Account): Promise<Account>;
  /** Its admin context, made once. */
  contextOf(account: Account): AppContext;
}

export class AccountSet {
  /** In the config file's order (new ones last). */
  readonly list: Account[] = [];
  readonly contexts = new Map<string, AppContext>();
  /** Each account's pictures (`/media/NAME/…`), in the config file's order. */
  readonly media = new Map<string, MediaAccount>();

  constructor(private readonly parts: AccountSetParts) {}

  get(name: string): Account | undefined {
    return this.list.find((a) => a.name === name);
  }

  /** An account served from now on. */
  async add(store: AccountStore, settings: AccountSettings): Promise<Account> {
    if (this.contexts.has(settings.name)) throw new Error(`the account ${settings.name} is served already`);
    return this.put(await this.parts.assemble(store, settings));
  }

  /**
   * The account `settings.name` rebuilt with new settings over the same store; answers the one it
   * replaced, which requests already holding it finish with.
   */
  async replace(settings: AccountSettings): Promise<Account> {
    const old = this.get(settings.name);
    if (!old) throw new Error(`no account ${settings.name} to replace`);
    const next = await this.parts.assemble({ read: old.read, write: old.write, cluster: old.databasePart }, settings, old);
    this.list[this.list.indexOf(old)] = next;
    this.index(next);
    return old;
  }

  /** The account served no more (its callback and admin requests find nothing); answers it. */
  remove(name: string): Account {
    const old = this.get(name);
    if (!old) throw new Error(`no account ${name} to remove`);
    this.list.splice(this.list.indexOf(old), 1);
    this.contexts.delete(name);
    this.media.delete(name);
    return old;
  }

  private put(account: Account): Account {
    this.list.push(account);
    this.index(account);
    return account;
  }

  private index(account: Account): void {
    this.contexts.set(account.name, this.parts.contextOf(account));
    this.media.set(account.name, { dir: account.mediaDir, fetch: (name) => account.write.fetchMedia(name) });
  }
}
