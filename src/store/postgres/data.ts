import type { SQL } from "bun";
import { constants, existsSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../base/clock.ts";
import type { Writer } from "../writer.ts";
import { mediaOf, writeMediaFile } from "../media.ts";
import type { Model } from "../model/model.ts";
import { editArticlePg, purgeArticlePg } from "./articles.ts";
import { backupPg, createBackupPg, getBackupPg, listBackupsPg, readBackupPg, removeBackupPg } from "./backups.ts";
import { importDocumentPg, lockWrites, stripCounts } from "./bulk.ts";
import { restoreDocumentPg } from "./restore.ts";
import { knownOutcome } from "./outcome.ts";
import { mergeRules, rules as rulesOf, setMenu } from "./content.ts";
import { mergeRuleList } from "../model/content.ts";
import type { PgMessageLog } from "./log.ts";
import { PgGeneratedCalls } from "./generated.ts";
import { PgLogReport } from "./report.ts";
import type { Replica } from "./replica.ts";
import { PG_SCHEMA_VERSION } from "./schema.ts";
import { openFile } from "../backup-file.ts";
import { pgExclusive } from "./exclusive.ts";
import { ACCOUNT_SCOPED } from "./account-schema.ts";
import { DEFAULT_REPLY_LIMIT } from "../follower-log.ts";

/**
 * PostgreSQL's writer: each write goes to the database, and the local copy catches up before the
 * answer, so what the operator reads next (and followers are answered from) includes it.
 */
export function pgWriter(
  sql: SQL,
  replica: Replica,
  local: Model,
  clock: Clock,
  keep: number,
  log: PgMessageLog,
  replyLimit = DEFAULT_REPLY_LIMIT,
  /** Tells the other instances (serve --redis) that the data changed, once this copy has it. */
  announce: () => void = () => {},
): Writer {
  // The write is done whether or not the copy can follow at once (the database may be going away
  // again): its answer says so, and the copy catches up on its next poll.
  const caughtUp = async <T>(result: T): Promise<T> => {
    await replica.catchUp().catch(() => {});
    announce();
    return result;
  };
  const at = () => ({ now: clock.now(), keep });
  // Under the lock, the copy first takes in what the instance that held it before wrote (the menu it stored).
  const exclusive = pgExclusive(sql, () => replica.catchUp());
  const report = new PgLogReport(sql);
  // Health asks on every call: the database's size is looked up once a second at most.
  let sized = { at: -Infinity, bytes: 0 };
  return {
    kind: "postgres",
    schema: PG_SCHEMA_VERSION,
    size: async () => {
      if (performance.now() - sized.at >= 1000) {
        // An account's size is its schema's tables (with their indexes and TOAST), not the database every account shares.
        const [{ n }] = (await sql.unsafe(
          `SELECT (CASE WHEN ${ACCOUNT_SCOPED}
                   THEN (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()))
                   ELSE pg_database_size(current_database()) END)::text AS n`,
        )) as [{ n: string }];
        sized = { at: performance.now(), bytes: Number(n) };
      }
      return sized.bytes;
    },
    log: {
      add: (m) => log.add(m),
      get backlog() {
        return log.backlog;
      },
      settled: () => log.settled(),
      list: (opts) => log.list(opts),
      newest: (limit) => log.newest(limit),
      prune: (days, now) => log.prune(days, now),
      replyLimit,
      window: (openid, now) => log.window(openid, now, replyLimit),
      record: (r) => log.record(r),
      entry: (seq) => log.entry(seq),
      before: (seq, openid, since) => log.before(seq, openid, since),
      after: (seq, openid, since, until) => log.after(seq, openid, since, until),
      sendFailed: (f) => report.sendFailed(f),
      figures: async (q) => {
        await log.settled();
        return report.figures(q);
      },
    },
    generated: new PgGeneratedCalls(sql),
    newestBackup: async () => (await listBackupsPg(sql))[0] ?? null,
    keep,
    backupTempFilesRemovedAtStart: 0,
    editArticle: async (id, edit) => caughtUp(await editArticlePg(sql, id, edit)),
    purgeArticle: async (id) => caughtUp(await purgeArticlePg(sql, id)),
    // The copy loaded alongside when every article is replaced (replica.ts mirrored), else caught up after.
    // A database gone at the COMMIT: the answer says whether it was applied (outcome.ts).
    importDocument: async (doc, mode, opts = {}) =>
      caughtUp(await knownOutcome(sql, mode === "init" ? "import (--init)" : "import", (o) => replica.mirrored((mirror) => importDocumentPg(sql, doc, mode, at(), mirror, o, opts)))),
    restore: async (doc, matter) => caughtUp(await knownOutcome(sql, "restore", (o) => replica.mirrored((mirror) => restoreDocumentPg(sql, doc, matter, at(), mirror, o)))),
    backup: (matter) => backupPg(sql, matter, clock.now(), keep),
    saveMenu: async (menu, opts = {}) =>
      caughtUp(
        await sql.begin(async (tx) => {
          await lockWrites(tx);
          const now = new Date(clock.now()).toISOString();
          const [current] = (await tx`SELECT body FROM menu WHERE id = 1`) as { body: string }[];
          const out: Awaited<ReturnType<Writer["saveMenu"]>> = {};
          // A different menu it replaces is kept as an automatic backup first, as on SQLite.
          if (current && current.body !== JSON.stringify(menu)) {
            const { counts: _counts, ...backup } = await createBackupPg(tx, "menu", "auto", clock.now(), keep);
            out.backup = backup;
          }
          await setMenu(tx, menu, now, opts.pushed ? now : null);
          if (opts.rules?.length) {
            // Rules a pull adds are kept as an automatic backup first, as on SQLite.
            const merged = mergeRuleList(await rulesOf(tx), opts.rules);
            if (merged.added || merged.updated) out.rulesBackup = stripCounts(await createBackupPg(tx, "rules", "auto", clock.now(), keep));
            out.rules = await mergeRules(tx, opts.rules);
          }
          return out;
        }),
      ),
    // Kept in the database; the local folder the files are served from is a cache of it.
    storeMedia: async (bytes, maxBytes) => {
      const { name, type } = mediaOf(bytes, maxBytes);
      const inserted = await sql`INSERT INTO media (name, type, size, body, created_at) VALUES (${name}, ${type}, ${bytes.length}, ${bytes}, ${new Date(clock.now()).toISOString()})
                                 ON CONFLICT (name) DO NOTHING RETURNING name`;
      writeMediaFile(local.mediaDir, name, bytes);
      return { name, type, size: bytes.length, existed: inserted.length === 0 };
    },
    fetchMedia: async (name) => {
      if (existsSync(join(local.mediaDir, name))) return true;
      const [row] = (await sql`SELECT body FROM media WHERE name = ${name}`) as { body: Uint8Array }[];
      if (!row) return false;
      writeMediaFile(local.mediaDir, name, row.body);
      return true;
    },
    listBackups: (matter) => listBackupsPg(sql, matter),
    getBackup: (matter, id) => getBackupPg(sql, matter, id),
    removeBackup: async (id) => void (await removeBackupPg(sql, id)),
    // Spooled to an unlinked file beside the local copy, a chunk at a time, then read like SQLite's.
    openBackup: async (id) => {
      const path = join(local.dir, `.replyd-backup-${crypto.randomUUID()}`);
      const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
      unlinkSync(path);
      try {
        await readBackupPg(sql, id, (bytes) => {
          for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
        });
      } catch (e) {
        openFile(fd).close();
        throw e;
      }
      return openFile(fd);
    },
    exclusive: (key, work) => exclusive(key, work),
  };
}
