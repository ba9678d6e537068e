/**
 * What reply windows cost the message log writer (issue 13): messages written in batches of 256 as
 * the writer thread writes them, one in five unmatched, for few and many distinct followers, with
 * - the schema before replies (version 5): the insert alone;
 * - replyd's (version 6): the insert, then one upsert of the followers table per distinct
 *   follower per batch;
 * - the alternative it replaced: version 5 plus an index of every message's sender (from_user, seq).
 * Median of three runs each, in µs per logged message.
 *
 *   bun bench/logindex.ts
 */
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../src/store/model/db.ts";

const BATCHES = 800;
const VARIANTS = { "before (schema 5)": 5, "followers table (6)": 6, "index of senders": -1 } as const;

function run(followers: number, version: number): number {
  const path = join(tmpdir(), `replyd-logindex-${process.pid}.db`);
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  const db = new Database(path, { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  for (const m of MIGRATIONS.slice(0, version < 0 ? 5 : version)) db.exec(m as string);
  if (version < 0) db.exec("CREATE INDEX messages_sender ON messages (from_user, seq)");
  const insert = db.query("INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const follower =
    version >= 6
      ? db.query("INSERT INTO followers (openid, last_seq, last_at) VALUES (?, ?, ?) ON CONFLICT(openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at WHERE excluded.last_seq > followers.last_seq")
      : null;
  const t0 = performance.now();
  for (let b = 0; b < BATCHES; b++)
    db.transaction(() => {
      const last = new Map<string, [number, string]>();
      for (let i = 0; i < 256; i++) {
        const n = b * 256 + i;
        const at = new Date().toISOString();
        const who = `oAbCdEfGhIjKlMnOpQrStUv${n % followers}`;
        const r = insert.run(at, `m:${n}`, who, "text", null, `hello ${n}`, "code", n % 5 === 0 ? 1 : 0);
        last.set(who, [Number(r.lastInsertRowid), at]);
      }
      if (follower) for (const [who, [seq, at]] of last) follower.run(who, seq, at);
    })();
  const us = ((performance.now() - t0) * 1000) / (BATCHES * 256);
  db.close();
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  return us;
}

console.log(`followers  ${Object.keys(VARIANTS).map((k) => k.padStart(20)).join("")}`);
for (const followers of [16, 1000, 50_000]) {
  const cells = Object.values(VARIANTS).map((v) => {
    const xs = [run(followers, v), run(followers, v), run(followers, v)].sort((a, b) => a - b);
    return (xs[1] as number).toFixed(1).padStart(20);
  });
  console.log(`${String(followers).padStart(9)}  ${cells.join("")}`);
}
