/**
 * A store's failures an operator can act on, told apart from bugs, whichever store: the data
 * folder full, read-only or failing (SQLite, the file system), the database unavailable
 * (postgres/errors.ts). Null for any other failure: a bug, answered 500 and logged.
 */
import { ReplydError } from "../base/errors.ts";
import { databaseUnavailable } from "./postgres/errors.ts";

export const storeFailure = (e: unknown): ReplydError | null => storageError(e) ?? databaseUnavailable(e);

/** The data folder's failures: the disk full, read-only, or failing. */
function storageError(e: unknown): ReplydError | null {
  const code = (e as { code?: unknown })?.code;
  if (code === "ENOSPC" || code === "SQLITE_FULL" || code === "EDQUOT")
    return new ReplydError("disk_full", "the data folder is full; nothing was written");
  if (code === "EROFS" || code === "EACCES" || code === "EPERM" || (typeof code === "string" && code.startsWith("SQLITE_READONLY")))
    return new ReplydError("read_only", "the data folder is not writable; nothing was written");
  if (typeof code === "string" && (code === "SQLITE_IOERR" || code.startsWith("SQLITE_IOERR_") || code === "EIO"))
    return new ReplydError("io_error", "the data folder could not be written (I/O error); nothing was written");
  return null;
}

