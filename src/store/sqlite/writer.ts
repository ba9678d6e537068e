/** The SQLite store behind the writer interface (store/writer.ts): every call is the store's own. */
import { existsSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Writer } from "../writer.ts";
import { openFile } from "../backup-file.ts";
import { SCHEMA_VERSION } from "../model/db.ts";
import { oneAtATime } from "../exclusive.ts";
import { mediaOf, writeMediaFile } from "../media.ts";
import type { DataFolder } from "./data-folder.ts";

/** The SQLite store's writer: every call is the store's own, its backups files in the data folder. */
export function sqliteWriter(store: DataFolder): Writer {
  return {
    kind: "sqlite",
    schema: SCHEMA_VERSION,
    size: async () => store.dbSize(),
    log: {
      add: (m) => store.messages.add(m),
      get backlog() {
        return store.messages.backlog;
      },
      settled: () => store.messages.settled(),
      list: (opts) => store.messages.list(opts),
      newest: (limit) => store.messages.newest(limit),
      prune: (days, now) => store.messages.prune(days, now),
      replyLimit: store.replies.limit,
      window: async (openid, now) => store.replies.window(openid, now),
      record: async (r) => store.replies.record(r),
      entry: async (seq) => store.replies.entry(seq),
      before: async (seq, openid, since) => store.replies.before(seq, openid, since),
      after: async (seq, openid, since, until) => store.replies.after(seq, openid, since, until),
      sendFailed: async (f) => store.report.sendFailed(f),
      figures: async (q) => {
        await store.messages.settled();
        return store.report.figures(q);
      },
    },
    generated: store.generated,
    newestBackup: async () => store.backups.newest(),
    keep: store.backups.keep,
    backupTempFilesRemovedAtStart: store.backups.tempRemovedAtStart,
    editArticle: async (id, edit) => store.editArticle(id, edit),
    purgeArticle: async (id) => store.purgeArticle(id),
    importDocument: async (doc, mode, opts) => store.importDocument(doc, mode, opts),
    restore: async (doc, matter) => store.restore(doc, matter),
    backup: async (matter) => store.backup(matter, "manual"),
    saveMenu: async (menu, opts) => store.saveMenu(menu, opts),
    storeMedia: async (bytes, maxBytes) => {
      const { name, type } = mediaOf(bytes, maxBytes);
      return { name, type, size: bytes.length, existed: writeMediaFile(store.mediaDir, name, bytes) };
    },
    fetchMedia: async (name) => existsSync(join(store.mediaDir, name)),
    listBackups: async (matter) => store.backups.list(matter),
    getBackup: async (matter, id) => store.backups.get(matter, id),
    removeBackup: async (id) => store.backups.remove(id),
    // Opened now: a backup pruned meanwhile stays readable through its descriptor.
    openBackup: async (id) => openFile(openSync(store.backups.pathOf(id), "r")),
    // One process owns an SQLite data folder: its own queue is every instance's.
    exclusive: (key, work) => oneAtATime(store, key, work),
  };
}
