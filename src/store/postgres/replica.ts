import type { SQL } from "bun";
import type { Menu } from "../../doc/menu.ts";
import type { Rule, Tags, Texts } from "../../doc/rule.ts";
import { sameSynonyms, type SynonymGroup } from "../../doc/synonyms.ts";
import type { Model } from "../model/model.ts";
import { readChanges, type FeedPage } from "./feed.ts";
import { CopyMirror, type Mirror } from "./mirror.ts";
import { BULK_INDEX_THRESHOLD } from "../model/model.ts";

/**
 * The local read copy of a PostgreSQL store: an SQLite store (in a temporary folder) that followers'
 * replies, search and listings read from, as in SQLite mode, brought up to date from the database's
 * change feed. It holds nothing that is not in PostgreSQL: deleted, it is loaded again.
 *
 * Catching up is idempotent (rows are written as they are now, removals deleted), so a catch-up cut
 * short is simply done again from the last generation it completed.
 */
export class Replica {
  private gen: bigint;
  private contentGen: string;

  constructor(
    private readonly store: Model,
    private readonly sql: SQL,
    private readonly logError: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
  ) {
    this.gen = BigInt(this.meta("pg_gen") ?? "0");
    this.contentGen = this.meta("pg_content_gen") ?? "";
  }

  /** The database's generation this copy reflects. */
  get generation(): bigint {
    return this.gen;
  }

  private meta(key: string): string | null {
    return (this.store.db.query("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | null)?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.store.db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value]);
  }

  private running: Promise<number> | null = null;
  private queued: Promise<number> | null = null;

  /**
   * Applies everything that changed since the last catch-up; answers how many articles were written
   * or removed. One catch-up at a time: a caller that arrives while one runs (it may have read its
   * snapshot before the caller's write) gets the next one, shared with everyone who asks meanwhile —
   * two at once would each apply the same rows (a million, after a restore).
   */
  catchUp(): Promise<number> {
    if (!this.running) return this.start();
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /**
   * A bulk write that may load this copy alongside it (mirror.ts): meanwhile no catch-up writes the
   * copy, nor does the search index; once the database has committed, the copy commits at the
   * generation the write reached, with no million rows read back from the feed. A write that did not
   * use the mirror, or whose copy failed, leaves the copy where it was for the caller's catch-up.
   */
  async mirrored<T>(write: (mirror: Mirror) => Promise<T>): Promise<T> {
    while (this.running) await this.running.catch(() => {});
    let done = () => {};
    // Catch-ups asked for meanwhile wait for this, as for a catch-up running.
    this.running = new Promise<number>((resolve) => (done = () => resolve(0)));
    const release = this.store.holdIndexing();
    const mirror = new CopyMirror(this.store.dbPath, this.logError);
    try {
      const result = await write(mirror);
      const gen = mirror.commit();
      if (gen !== null) {
        this.gen = gen;
        this.store.articles.reload();
        this.store.indexInBackground();
      }
      return result;
    } catch (e) {
      mirror.abandon();
      throw e;
    } finally {
      release();
      this.running = null;
      done();
    }
  }

  private start(): Promise<number> {
    const run = this.run().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async run(): Promise<number> {
    let applied = 0;
    // Into an empty copy (a first load, or after a restore's wipe) every row is new: the feed holds
    // each id once, and live codes are unique in its snapshot, so rows are inserted with no lookups.
    let empty = this.store.articles.total() === 0;
    let deferred = false;
    try {
      const to = await readChanges(this.sql, this.gen, (page) => {
        applied += page.removed.length + page.articles.length;
        if (page.wiped) empty = true;
        deferred = this.apply(page, empty) || deferred;
      });
      if (to !== this.gen) {
        this.setMeta("pg_gen", to.toString());
        this.gen = to;
      }
    } finally {
      if (deferred) this.store.indexInBackground();
    }
    await this.catchUpContent();
    return applied;
  }

  /**
   * One page, in one transaction; answers whether it left the search index to be rebuilt. Rows come
   * as they are now, not as they went: a code may have moved from one article to another through
   * states the feed does not show (a swap), so a row that takes a live code first releases it from
   * the local article holding it, whose own new state is in the same catch-up (it no longer holds
   * that code in the database).
   */
  private apply(page: FeedPage, empty: boolean): boolean {
    const articles = this.store.articles;
    const bulk = page.wiped === true || page.articles.length + page.removed.length > BULK_INDEX_THRESHOLD;
    this.store.writeArticles(
      bulk,
      () => {
        if (page.wiped) articles.clear();
        for (const id of page.removed) articles.purge(id);
        if (empty) {
          for (const a of page.articles) articles.insertExact(a);
          return;
        }
        for (const a of page.articles) {
          if (a.code !== null && !a.deleted) {
            const holder = articles.liveIdByCode(a.code);
            if (holder !== undefined && holder !== a.id) articles.releaseCode(holder);
          }
          articles.putExact(a);
        }
      },
      true,
    );
    return bulk;
  }

  /**
   * Tags, rules, texts, the menu and the synonyms, reloaded whole when the database's content
   * generation moved. New synonyms rebuild the copy's passage index (every article is filed with
   * them), emptied in the same transaction: each instance of a cluster ranks with them once its
   * copy has them.
   */
  private async catchUpContent(): Promise<void> {
    const content = await this.sql.begin(async (tx) => {
      await tx`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
      const [gen] = await tx`SELECT value FROM meta WHERE key = 'content_gen'`;
      const value = (gen as { value: string } | undefined)?.value ?? "0";
      if (value === this.contentGen) return null;
      return {
        gen: value,
        tags: (await tx`SELECT tag, description FROM tags`) as { tag: string; description: string }[],
        rules: (await tx`SELECT body FROM rules ORDER BY position`) as { body: string }[],
        texts: (await tx`SELECT key, value FROM texts`) as { key: string; value: string }[],
        menu: (await tx`SELECT body, updated_at, pushed_at FROM menu WHERE id = 1`) as { body: string; updated_at: string; pushed_at: string | null }[],
        synonyms: ((await tx`SELECT phrases FROM synonyms ORDER BY position`) as { phrases: string }[]).map((r) => JSON.parse(r.phrases) as SynonymGroup),
      };
    });
    if (!content) return;
    const c = this.store.content;
    const newSynonyms = !sameSynonyms(c.synonyms(), content.synonyms);
    try {
      this.store.db.transaction(() => {
        c.replaceTags(Object.fromEntries(content.tags.map((t) => [t.tag, t.description])) as Tags);
        c.replaceRules(content.rules.map((r) => JSON.parse(r.body) as Rule));
        c.replaceTexts(Object.fromEntries(content.texts.map((t) => [t.key, t.value])) as Texts);
        const m = content.menu[0];
        c.putMenuExact(m ? { menu: JSON.parse(m.body) as Menu, updated_at: m.updated_at, pushed_at: m.pushed_at } : null);
        if (newSynonyms) {
          c.replaceSynonyms(content.synonyms);
          this.store.articles.index.refilePassages();
        }
        this.setMeta("pg_content_gen", content.gen);
      }).immediate();
    } catch (e) {
      // Rolled back: the index's state the reset left in memory is read again.
      if (newSynonyms) this.store.articles.reload();
      throw e;
    }
    this.contentGen = content.gen;
    if (newSynonyms) this.store.indexInBackground();
  }
}
