/**
 * Backups as both stores name and describe them: an id says the matter, when, manual or automatic,
 * and four random characters; the same on SQLite (a file each) and PostgreSQL (rows).
 */
import type { Matter } from "../doc.ts";

/** A time as the compact stamp in backup ids: 20261121T100000123Z. */
export const stampOf = (ms: number) => new Date(ms).toISOString().replace(/[-:.]/g, "");

export type BackupKind = "manual" | "auto";

export interface BackupInfo {
  id: string;
  matter: Matter;
  kind: BackupKind;
  created_at: string;
  size: number;
  sha256: string | null;
}

/** `<matter>-<UTC stamp to the ms>-<kind>-<4 random>`: sortable, never a path, and the only shape the client accepts (docs/protocol.md). */
export const BACKUP_ID = /^(all|articles|rules|texts|menu|synonyms)-(\d{8}T\d{9}Z)-(manual|auto)-([a-z0-9]{4})$/;

export const isBackupId = (id: string) => BACKUP_ID.test(id);

/** A new backup's id, stamped `ms`. */
export function backupId(matter: Matter, kind: BackupKind, ms: number): string {
  const rand = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
  return `${matter}-${stampOf(ms)}-${kind}-${rand}`;
}
