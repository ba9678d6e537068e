import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { articleJson, type Article } from "../../article/article.ts";
import type { Clock } from "../../base/clock.ts";
import { DocumentWriter } from "../../doc/document-writer.ts";
import { asBulk, SECTIONS, type BulkDocument, type Matter, type ReplydDocument } from "../../doc/document.ts";
import type { Menu } from "../../doc/menu.ts";
import type { Rule } from "../../doc/rule.ts";
import type { ArticleEdit, EditResult, ImportOptions, ImportResult, RestoreResult } from "../writer.ts";
import type { BackupInfo, BackupKind } from "../backup-ids.ts";
import { codeTaken, decideEdit } from "../conflicts.ts";
import { DEFAULT_REPLY_LIMIT } from "../follower-log.ts";
import { mergeRuleList } from "../model/content.ts";
import { Model } from "../model/model.ts";
import { BackupFiles } from "./backups.ts";
import { importDocument, restoreDocument } from "./bulk.ts";
import { LogWriter } from "./logwriter.ts";
import { MessageLog } from "./messages.ts";
import { ReplyBook } from "./replies.ts";
import { GeneratedCalls } from "./generated.ts";
import { LogReport } from "./report.ts";
import { checkpoint, describeCheckpoint } from "./checkpoint.ts";

const bulkOf = (doc: BulkDocument | ReplydDocument): BulkDocument => (Array.isArray(doc.articles) ? asBulk(doc as ReplydDocument) : (doc as BulkDocument));

export interface DataFolderOptions {
  clock: Clock;
  /** Backups kept per matter. */
  keep: number;
  /** Replies allowed per follower interaction (--reply-limit). */
  replyLimit?: number;
  /** Failures of background work (the message log writer); stderr when not given. */
  logError?: (message: string) => void;
  /** The account it is of, on a server of several accounts: recorded in its backups (document.ts `account`). */
  account?: string;
  /** False for a copy of data kept elsewhere (PostgreSQL mode's read copy): commits are not flushed to disk. */
  durable?: boolean;
}

/**
 * The data folder (the SQLite backend): the read model's database written in place, backups/ for
 * documents, media/ for public files, and the follower message log with its writer thread.
 */
export class DataFolder extends Model {
  readonly backups: BackupFiles;
  readonly messages: MessageLog;
  readonly replies: ReplyBook;
  readonly generated: GeneratedCalls;
  readonly report: LogReport;

  private constructor(
    dir: string,
    db: Database,
    private readonly opts: DataFolderOptions,
  ) {
    super(dir, db, opts);
    this.messages = new MessageLog(db, new LogWriter(this.dbPath, this.logError));
    this.replies = new ReplyBook(db, opts.replyLimit ?? DEFAULT_REPLY_LIMIT);
    this.generated = new GeneratedCalls(db);
    this.report = new LogReport(db);
    this.backups = new BackupFiles(join(dir, "backups"), opts.clock, opts.keep);
  }

  static override open(dir: string, opts: DataFolderOptions): DataFolder {
    const store = new DataFolder(dir, Model.database(dir, opts.durable ?? true), opts);
    // Messages a shutdown could not write (the disk was full) are logged now.
    store.messages.replaySpills(dir, store.logError);
    store.startIndexing();
    return store;
  }

  /**
   * Closes the store. Follower messages the log could not write (the disk is full) are kept in a
   * spill file in the data folder, logged at the next start; answers how many were not logged and
   * whether they were kept (`lost` > 0: not even the spill file could be written), and whether
   * replyd.db alone holds everything now (checkpoint.ts).
   */
  override close(logWaitMs = 10_000): { spilled: number; lost: number; file: string | null; database: string } {
    this.indexer.close();
    this.searcher.close();
    let outcome = { spilled: 0, lost: 0, file: null as string | null };
    try {
      const r = this.messages.close(join(this.dir, `messages-unwritten-${Date.now()}.jsonl`), logWaitMs);
      if (r.unwritten) {
        outcome = r.spilled ? { spilled: r.unwritten, lost: 0, file: r.spilled } : { spilled: 0, lost: r.unwritten, file: null };
        this.logError(
          r.spilled
            ? `${r.unwritten} follower messages could not be written to the log; kept in ${r.spilled}, logged at the next start`
            : `${r.unwritten} follower messages could not be written to the log and are lost: ${r.error}`,
        );
      }
    } catch (e) {
      this.logError((e as Error).message);
    }
    // replyd.db alone holds everything after a clean stop, even while another process reads it.
    let database: string;
    try {
      const c = checkpoint(this.db);
      database = describeCheckpoint(c);
      if (!c.complete)
        this.logError(`${database}: another process held the database through the stop (a read transaction, a checkpoint of its own); keep replyd.db-wal beside replyd.db (the next start copies it)`);
    } catch (e) {
      database = "replyd.db needs replyd.db-wal: the checkpoint failed";
      this.logError(`the WAL could not be checkpointed at stop (${(e as Error).message}); keep replyd.db-wal beside replyd.db`);
    }
    this.db.close(false);
    return { ...outcome, database };
  }

  nowIso(): string {
    return new Date(this.opts.clock.now()).toISOString();
  }

  /** A consistent snapshot of `matter` written as a server-side backup. */
  backup(matter: Matter, kind: BackupKind = "manual"): BackupInfo & { counts: Record<string, number> } {
    const counts: Record<string, number> = {};
    // One read transaction: every section comes from the same instant even if a write is waiting.
    const info = this.db.transaction(() =>
      this.backups.create(matter, kind, (sink, createdAt) => {
        const w = new DocumentWriter(sink, matter, createdAt, this.opts.account);
        const sections = SECTIONS[matter];
        if (sections.includes("articles")) counts.articles = w.array("articles", this.articles.iterateAll(), articleJson);
        if (sections.includes("tags")) {
          const tags = this.content.tags();
          counts.tags = Object.keys(tags).length;
          w.field("tags", tags);
        }
        if (sections.includes("rules")) counts.rules = w.array("rules", this.content.rules());
        if (sections.includes("texts")) {
          const texts = this.content.texts();
          counts.texts = Object.keys(texts).length;
          w.field("texts", texts);
        }
        if (sections.includes("menu")) {
          const menu = this.content.menu()?.menu ?? null;
          counts.menu = menu ? 1 : 0;
          w.field("menu", menu);
        }
        if (sections.includes("synonyms")) {
          const synonyms = this.content.synonyms();
          counts.synonyms = synonyms.length;
          w.field("synonyms", synonyms);
        }
        return w.finish();
      }),
    )();
    return { ...info, counts };
  }

  /**
   * Stores the menu (null: removes it) and the rules it needs in one transaction; a different menu
   * it replaces is kept as an automatic backup first. `pushed`: the platform has just taken it.
   */
  saveMenu(menu: Menu | null, opts: { pushed?: boolean; rules?: Rule[] } = {}): { backup?: BackupInfo; rulesBackup?: BackupInfo; rules?: { added: number; updated: number; unchanged: number } } {
    const current = this.content.menu();
    const out: ReturnType<DataFolder["saveMenu"]> = {};
    if (current && JSON.stringify(current.menu) !== JSON.stringify(menu)) out.backup = this.backup("menu", "auto");
    if (opts.rules?.length) {
      const merged = mergeRuleList(this.content.rules(), opts.rules);
      if (merged.added || merged.updated) out.rulesBackup = this.backup("rules", "auto");
    }
    const now = this.nowIso();
    this.db
      .transaction(() => {
        this.content.setMenu(menu, now, opts.pushed ? now : null);
        if (opts.rules?.length) out.rules = this.content.mergeRules(opts.rules);
      })
      .immediate();
    return out;
  }

  /** Bulk add (merge) or initialize (init): see bulk.ts. */
  importDocument(doc: BulkDocument | ReplydDocument, mode: "merge" | "init", opts: ImportOptions = {}): ImportResult {
    return importDocument(this, bulkOf(doc), mode, opts);
  }

  /** Replaces `matter` with the document's content: see bulk.ts. */
  restore(doc: BulkDocument | ReplydDocument, matter: Matter): RestoreResult {
    return restoreDocument(this, bulkOf(doc), matter);
  }

  /**
   * One article's write (writer.ts ArticleEdit), decided in one immediate transaction against the
   * article as stored: rev, the edit's decision, the live code. Answers it as stored: an id made
   * again continues above its old revs.
   */
  editArticle(id: string, edit: ArticleEdit): EditResult {
    let result: EditResult | undefined;
    this.writeArticles(false, () => {
      const stored = this.articles.get(id);
      const next = decideEdit(id, stored, edit);
      if (!next) return void (result = { article: stored as Article, created: false, changed: false });
      if (next.code !== null && !next.deleted) {
        const owner = this.articles.liveIdByCode(next.code);
        if (owner !== undefined && owner !== next.id) throw codeTaken(next.code, owner);
      }
      if (stored) this.articles.update(next);
      else this.articles.insert(next);
      result = { article: this.articles.get(id) as Article, created: !stored, changed: true };
    });
    return result as EditResult;
  }

  /** Removes an article for good, with its search entries. */
  purgeArticle(id: string): boolean {
    let removed = false;
    this.writeArticles(false, () => void (removed = this.articles.purge(id)));
    return removed;
  }
}
