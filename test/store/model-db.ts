/** A read model's database in a folder of its own, removed after `fn` (the model's own suites). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/store/model/db.ts";

export type ModelDb = ReturnType<typeof openDatabase>;

export function withDb(fn: (db: ModelDb) => void) {
  const dir = mkdtempSync(join(tmpdir(), "replyd-model-"));
  const db = openDatabase(join(dir, "replyd.db"));
  try {
    fn(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
