/**
 * The one seam between the server and where its data is kept, as litestream puts its replica
 * clients behind one interface. A backend is two things:
 *
 * - the **read model** (read-model.ts): what routes and the responder read, synchronously —
 *   SQLite itself, or PostgreSQL's local copy (an SQLite file kept up to date from the database's
 *   change feed);
 * - the **writer** (writer.ts): every write and everything read from the store of record (backups,
 *   the message log), asynchronous as a database is. Its transactions decide every conflict: a
 *   route never checks against what it read first.
 *
 * `openBackend` (open.ts) chooses SQLite or PostgreSQL by the target's scheme; nothing else chooses.
 */
import type { Clock } from "../base/clock.ts";
import type { AdminKey, Keys } from "./keys.ts";
import type { RedisLink } from "./redis/link.ts";
import type { ReadModel } from "./read-model.ts";
import type { Writer } from "./writer.ts";

/** What a route answers for a store's failure the operator can act on (failures.ts); null for a bug. */
export { storeFailure } from "./failures.ts";

/** What a backend needs to open. */
export interface BackendOptions {
  clock: Clock;
  /** Backups kept per matter (--keep). */
  keep: number;
  /** Replies allowed per follower interaction (--reply-limit). */
  replyLimit?: number;
  /** Keys from elsewhere (tests) accepted beside the stored ones. */
  extraKeys: AdminKey[];
  /**
   * The admin key from serve's environment (REPLYD_APPKEY/REPLYD_SECRET): accepted beside the stored
   * ones, and recorded (its appkey, never its secret) where `replyd keys` finds it while this server runs.
   */
  environmentKey?: AdminKey;
  /** Make the first admin key when the store has none and no other key is given (a server's start). */
  firstKey: boolean;
  logError: (message: string) => void;
  /** What is back to normal (the database answers again): logged as information, not as an error; logError when not given. */
  logInfo?: (message: string) => void;
  /**
   * SQLite: the account this folder is of, on a server of several accounts (recorded in its backups).
   * PostgreSQL reads it from the schema (store/postgres/account-schema.ts).
   */
  account?: string;
  /** PostgreSQL only: the cluster's Redis, for change notices (serve --redis). */
  redis?: RedisLink;
}

/** One instance among those serving from one database (PostgreSQL): what health shows of the cluster. */
export interface ClusterPart {
  readonly registry: { readonly id: string; readonly host: string; readonly seen: unknown[]; url: string | null; beat(): Promise<void> };
  /** Whether the database answers, as the copy's follower and the key ring last found. */
  state(): { state: "up" | "down"; since?: string; error?: string };
  /** How long other instances' writes took to reach this one's copy (from their change notices). */
  cacheLag(): { last_ms: number | null; max_ms_last_minute: number | null; notices: number };
}

export interface Backend {
  readonly kind: "sqlite" | "postgres";
  readonly read: ReadModel;
  readonly write: Writer;
  readonly keys: Keys;
  /** The first admin key, when this start made it: printed once by the server. */
  readonly created: AdminKey | null;
  /** Where the data is, for the log's first line (a database URL without its password). */
  readonly where: { data: string } | { db: string };
  readonly cluster: ClusterPart | null;
  /**
   * Writes what the message log holds and closes. `lost`: follower messages neither logged nor kept;
   * `kept`: those kept in a spill file (`keptIn`) to be logged at the next start; `database`: a data
   * folder's state after its checkpoint (whether replyd.db alone holds everything).
   */
  close(): Promise<{ lost: number; kept?: number; keptIn?: string; database?: string }>;
}

/** A backend that cannot open, in one sentence (the server says it and exits). */
export class BackendError extends Error {}
