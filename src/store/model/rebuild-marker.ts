/**
 * Where a background rebuild of the search indexes stands, as meta keeps it (article-index.ts):
 * `fts_rebuild_from`, the seq after which articles still await filing (absent: none do), and
 * `answer_rebuild_alone`, holding the same value while the rebuild under way files the passage
 * index alone (the title and keyword indexes whole). One marker for both kinds, so that a replyd
 * from before the second kind, opening a data folder mid-rebuild (a release rolled back), finishes
 * it as a rebuild of every index — right, if slower — rather than never. The second key is believed
 * only while it equals the marker, and for such a rebuild the marker is written as "2000.0": read
 * as the same number by every version, but a form no older replyd and no migration ever writes
 * (they write "0" or "2000"), so a key one of them left behind never equals a marker they moved.
 */
import type { Database } from "bun:sqlite";

export const MARKER = "fts_rebuild_from";
export const ALONE = "answer_rebuild_alone";

export interface RebuildState {
  /** Articles with seq above this await filing. */
  from: number;
  /** Only the passage index is being rebuilt. */
  passagesOnly: boolean;
}

/** Null when no rebuild is under way. */
export function rebuildState(db: Database): RebuildState | null {
  const row = db.query(`SELECT (SELECT value FROM meta WHERE key = '${MARKER}') AS marker, (SELECT value FROM meta WHERE key = '${ALONE}') AS alone`).get() as {
    marker: string | null;
    alone: string | null;
  };
  return row.marker === null ? null : { from: Number(row.marker), passagesOnly: row.alone === row.marker };
}

/** Sets the marker at `from` (and the second key with it when the passage index is rebuilt alone); null ends the rebuild. */
export function markRebuild(db: Database, state: RebuildState | null): void {
  db.run(`DELETE FROM meta WHERE key IN ('${MARKER}', '${ALONE}')`);
  if (!state) return;
  const marker = state.passagesOnly ? `${state.from}.0` : String(state.from);
  db.run("INSERT INTO meta (key, value) VALUES (?, ?)", [MARKER, marker]);
  if (state.passagesOnly) db.run("INSERT INTO meta (key, value) VALUES (?, ?)", [ALONE, marker]);
}
