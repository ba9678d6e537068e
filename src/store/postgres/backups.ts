/**
 * Backups in PostgreSQL, with the SQLite store's semantics (backups.ts): the same ids, stamps that
 * never go back, the same pruning; the same document, byte for byte, for the same data. A backup is
 * written from one snapshot a page of articles at a time into chunks of about 1 MiB, each
 * compressed on its own, and read back a chunk at a time: memory is a page and a chunk.
 */
import type { SQL, TransactionSQL } from "bun";
import { articleJson } from "../../article/article.ts";
import { DocumentWriter } from "../../doc/document-writer.ts";
import { SECTIONS, type Matter } from "../../doc/document.ts";
import type { Menu } from "../../doc/menu.ts";
import { TEXT_KEYS, type Rule } from "../../doc/rule.ts";
import { fromRow, type StoredRow } from "../rows.ts";
import { ROW_SELECT } from "./columns.ts";
import { accountOfSchema } from "./account-schema.ts";
import { backupId, type BackupInfo, type BackupKind } from "../backup-ids.ts";

const CHUNK = 1 << 20;
const PAGE = 5000;

interface Row {
  id: string;
  matter: Matter;
  kind: BackupKind;
  created_at: string;
  size: string | number;
  sha256: string | null;
}
const infoOf = (r: Row): BackupInfo => ({ id: r.id, matter: r.matter, kind: r.kind, created_at: r.created_at, size: Number(r.size), sha256: r.sha256 });

/**
 * Writes a backup of `matter` inside `tx`, whose snapshot it reads (a restore's own transaction,
 * after the write lock, backs up exactly what it replaces). `now`: the clock's reading.
 */
export async function createBackupPg(tx: TransactionSQL, matter: Matter, kind: BackupKind, now: number, keep: number): Promise<BackupInfo & { counts: Record<string, number> }> {
  const [newest] = (await tx`SELECT created_at FROM backups ORDER BY created_at DESC LIMIT 1`) as { created_at: string }[];
  const ms = Math.max(now, newest ? Date.parse(newest.created_at) + 1 : 0);
  const id = backupId(matter, kind, ms);
  const createdAt = new Date(ms).toISOString();
  await tx`INSERT INTO backups (id, matter, kind, created_at, size, sha256) VALUES (${id}, ${matter}, ${kind}, ${createdAt}, 0, NULL)`;

  let pending: string[] = [];
  let pendingLength = 0;
  let size = 0;
  let n = 0;
  const flush = async (all: boolean) => {
    if (!pendingLength || (!all && pendingLength < CHUNK)) return;
    const bytes = Buffer.from(pending.join(""), "utf8");
    pending = [];
    pendingLength = 0;
    size += bytes.length;
    await tx`INSERT INTO backup_chunks (id, n, body) VALUES (${id}, ${n++}, ${Bun.gzipSync(bytes, { level: 1 })})`;
  };
  // The account is the schema the pool reads (account-schema.ts): recorded so a restore into another can warn.
  const [{ schema }] = (await tx`SELECT current_schema() AS schema`) as [{ schema: string }];
  const w = new DocumentWriter(
    (chunk) => {
      pending.push(chunk);
      pendingLength += chunk.length;
    },
    matter,
    createdAt,
    accountOfSchema(schema),
  );

  const counts: Record<string, number> = {};
  const sections = SECTIONS[matter];
  if (sections.includes("articles")) {
    const add = w.opened("articles");
    // In id order, as SQLite's BINARY collation orders them: "C", whatever the database's locale.
    // One cursor, sorted once, fetched a page at a time.
    await tx.unsafe(`DECLARE backup_articles NO SCROLL CURSOR FOR
      SELECT ${ROW_SELECT} FROM articles ORDER BY id COLLATE "C"`);
    // The next page is asked for before this one is written out: PostgreSQL reads while we encode.
    const fetchPage = (): Promise<StoredRow[]> => {
      const q = tx.unsafe(`FETCH ${PAGE} FROM backup_articles`);
      q.catch(() => {});
      return q;
    };
    for (let next = fetchPage(); ; ) {
      const rows = await next;
      if (rows.length === PAGE) next = fetchPage();
      for (const r of rows) add(articleJson(fromRow(r)));
      await flush(false);
      if (rows.length < PAGE) break;
    }
    await tx.unsafe("CLOSE backup_articles");
    counts.articles = w.closed();
  }
  if (sections.includes("tags")) {
    const tags = Object.fromEntries(((await tx`SELECT tag, description FROM tags ORDER BY tag COLLATE "C"`) as { tag: string; description: string }[]).map((t) => [t.tag, t.description]));
    counts.tags = Object.keys(tags).length;
    w.field("tags", tags);
  }
  if (sections.includes("rules")) {
    const rules = ((await tx`SELECT body FROM rules ORDER BY position`) as { body: string }[]).map((r) => JSON.parse(r.body) as Rule);
    counts.rules = rules.length;
    w.field("rules", rules);
  }
  if (sections.includes("texts")) {
    const stored = new Map(((await tx`SELECT key, value FROM texts`) as { key: string; value: string }[]).map((t) => [t.key, t.value]));
    const texts = Object.fromEntries(TEXT_KEYS.filter((k) => stored.has(k)).map((k) => [k, stored.get(k)]));
    counts.texts = Object.keys(texts).length;
    w.field("texts", texts);
  }
  if (sections.includes("menu")) {
    const [row] = (await tx`SELECT body FROM menu WHERE id = 1`) as { body: string }[];
    counts.menu = row ? 1 : 0;
    w.field("menu", row ? (JSON.parse(row.body) as Menu) : null);
  }
  if (sections.includes("synonyms")) {
    const groups = ((await tx`SELECT phrases FROM synonyms ORDER BY position`) as { phrases: string }[]).map((r) => JSON.parse(r.phrases) as unknown);
    counts.synonyms = groups.length;
    w.field("synonyms", groups);
  }
  const sha256 = w.finish();
  await flush(true);
  await tx`UPDATE backups SET size = ${size}, sha256 = ${sha256} WHERE id = ${id}`;
  await prune(tx, matter, keep);
  return { id, matter, kind, created_at: createdAt, size, sha256, counts };
}

/** Keeps the newest `keep`, and whatever else the newest automatic backup is. */
async function prune(tx: TransactionSQL, matter: Matter, keep: number): Promise<void> {
  await tx`DELETE FROM backups WHERE matter = ${matter}
           AND id NOT IN (SELECT id FROM backups WHERE matter = ${matter} ORDER BY created_at DESC, id DESC LIMIT ${keep})
           AND id <> coalesce((SELECT id FROM backups WHERE matter = ${matter} AND kind = 'auto' ORDER BY created_at DESC, id DESC LIMIT 1), '')`;
}

/** A manual backup, from one snapshot of its own. */
export async function backupPg(sql: SQL, matter: Matter, now: number, keep: number): Promise<BackupInfo & { counts: Record<string, number> }> {
  return sql.begin(async (tx) => {
    await tx`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`;
    return createBackupPg(tx, matter, "manual", now, keep);
  });
}

/** Newest first; `matter` omitted lists every matter. */
export async function listBackupsPg(sql: SQL, matter?: Matter): Promise<BackupInfo[]> {
  const rows = (matter
    ? await sql`SELECT id, matter, kind, created_at, size::text AS size, sha256 FROM backups WHERE matter = ${matter} ORDER BY created_at DESC, id DESC`
    : await sql`SELECT id, matter, kind, created_at, size::text AS size, sha256 FROM backups ORDER BY created_at DESC, id DESC`) as Row[];
  return rows.map(infoOf);
}

export async function getBackupPg(sql: SQL, matter: Matter, id: string): Promise<BackupInfo | null> {
  const [row] = (await sql`SELECT id, matter, kind, created_at, size::text AS size, sha256 FROM backups WHERE id = ${id} AND matter = ${matter}`) as Row[];
  return row ? infoOf(row) : null;
}

export async function removeBackupPg(sql: SQL, id: string): Promise<boolean> {
  return ((await sql`DELETE FROM backups WHERE id = ${id} RETURNING id`) as unknown[]).length > 0;
}

/** A backup's document, handed to `write` a chunk at a time (decompressed), from one snapshot. */
export async function readBackupPg(sql: SQL, id: string, write: (bytes: Uint8Array) => void | Promise<void>): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
    for (let n = 0; ; n++) {
      const [chunk] = (await tx`SELECT body FROM backup_chunks WHERE id = ${id} AND n = ${n}`) as { body: Uint8Array }[];
      if (!chunk) return;
      await write(Bun.gunzipSync(chunk.body as Uint8Array<ArrayBuffer>));
    }
  });
}
