import type { ArticleIndex } from "./article-index.ts";
import type { Searcher } from "./searcher.ts";
import type { IndexCheck } from "../read-model.ts";

/**
 * The search indexes' upkeep: rebuilt in small batches in the background after a bulk write (the
 * event loop keeps serving between batches), resumed where it stopped after a restart, and counted
 * against the articles after start (off the event loop, on the search worker) — rebuilt when the
 * counts disagree, so `ready` always means whole.
 */
export class IndexKeeper {
  private indexing = false;
  private closed = false;
  /** Another connection is writing the database (a read copy loaded alongside a bulk write): no batch may wait on its lock. */
  private holds = 0;
  /** "checking" until the index has been counted against the articles after start. */
  verified: IndexCheck = "checking";

  constructor(
    private readonly index: ArticleIndex,
    private readonly searcher: Searcher,
    private readonly logError: (message: string) => void,
  ) {}

  /** Rebuilds in batches of 2,000, yielding between them. */
  inBackground(): void {
    if (this.indexing || this.index.indexComplete) return;
    this.indexing = true;
    const step = () => {
      if (this.closed) return void (this.indexing = false);
      if (this.holds) return void setTimeout(step, 50);
      try {
        if (this.index.indexBatch(2000)) return void (this.indexing = false);
        setTimeout(step, 0);
      } catch {
        // The disk may be full or busy: try again a little later; search scans the rest meanwhile.
        setTimeout(step, 1000);
      }
    };
    setTimeout(step, 0);
  }

  async verify(): Promise<void> {
    const c = await this.searcher.countIndex();
    if (this.closed) return;
    if (!c) return void (this.verified = "unknown");
    while (this.holds && !this.closed) await Bun.sleep(50);
    if (this.closed) return;
    // A rebuild was under way when counted, or has begun since: it makes whole what it rebuilds —
    // every index, or the passage index alone, the search indexes' counts then still checked.
    const everyRebuilt = (c.pending !== null && !c.passagesOnly) || !this.index.searchIndexComplete;
    const passagesRebuilt = c.pending !== null || !this.index.indexComplete;
    const searchWhole = c.fts === c.articles && c.grams === c.articles;
    if (everyRebuilt || (searchWhole && (passagesRebuilt || c.answers === c.live))) return void (this.verified = "ok");
    this.logError(
      `the search index does not match the articles (${c.articles} articles, ${c.fts} and ${c.grams} index entries; ${c.live} live, ${c.answers} in the passage index); rebuilding it`,
    );
    this.index.rebuildIndex();
    this.verified = "rebuilt";
    this.inBackground();
  }

  /**
   * Keeps the index's writes (batches, a rebuild found necessary) waiting until the answer is
   * called: on this thread, a batch waiting for another connection's write lock would stall the
   * event loop that connection's work needs.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (!released) this.holds--;
      released = true;
    };
  }

  /** Waits until the index is complete (tests, benchmarks). */
  async complete(): Promise<void> {
    this.inBackground();
    while (!this.index.indexComplete) await Bun.sleep(5);
  }

  close(): void {
    this.closed = true;
  }
}
