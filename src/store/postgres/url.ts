/**
 * The database's connection URL: completed from the environment the way PostgreSQL's own tools do
 * (libpq's PG* variables), and kept out of messages with its password.
 */

/** The connection URL with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(a malformed database URL)";
  }
}

/** A message that may quote the URL (a driver's error), its password removed. */
export function scrubPassword(message: string, url: string): string {
  let password = "";
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {}
  return password ? message.split(password).join("***") : message;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL (with the environment) does not name a database replyd can connect to. */
export class DatabaseUrlError extends Error {}

type Env = Record<string, string | undefined>;

// libpq's URL form; every part may be left out (postgres:// alone is a valid URL to it).
const URL_FORM = /^postgres(?:ql)?:\/\/(?:([^:@/?#]*)(?::([^@/?#]*))?@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?(?:\/([^?#]*))?(\?[^#]*)?$/i;

const decode = (part: string | undefined, what: string) => {
  try {
    return part ? decodeURIComponent(part) : "";
  } catch {
    throw new DatabaseUrlError(`the database URL's ${what} is not valid percent-encoding`);
  }
};

/**
 * The URL `--db` (or REPLYD_DB) names, with what it leaves out taken from the environment:
 * `postgres://` alone means DATABASE_URL when that is set; then a missing host, port, user,
 * password or database comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, and PGSSLMODE
 * gives sslmode when the URL has none. Without a host anywhere it is localhost (TCP: replyd does not
 * use libpq's socket folder); without a database, the user's name (as libpq).
 */
export function databaseUrl(value: string, env: Env): string {
  if (!isPostgresUrl(value)) throw new DatabaseUrlError("--db must be a postgres:// URL (postgres://user:password@host/database)");
  let given = value;
  if (/^postgres(ql)?:\/\/$/i.test(value) && env.DATABASE_URL) {
    if (!isPostgresUrl(env.DATABASE_URL)) throw new DatabaseUrlError("--db postgres:// takes DATABASE_URL, which is not a postgres:// URL");
    given = env.DATABASE_URL;
  }
  const m = URL_FORM.exec(given);
  if (!m) throw new DatabaseUrlError("the database URL is malformed: postgres://user:password@host:port/database");
  const pgHost = env.PGHOST ?? "";
  const host = m[3] || pgHost || "localhost";
  if (host.startsWith("/")) throw new DatabaseUrlError(`PGHOST names a socket folder (${host}); replyd connects over TCP: give the server's host name`);
  const port = m[4] || env.PGPORT || "";
  if (port && !/^\d{1,5}$/.test(port)) throw new DatabaseUrlError(`the database port must be a number, not ${JSON.stringify(port)}`);
  const user = decode(m[1], "user") || env.PGUSER || "";
  const password = decode(m[2], "password") || env.PGPASSWORD || "";
  const database = decode(m[5], "database name") || env.PGDATABASE || user;
  const query = new URLSearchParams(m[6] ?? "");
  if (!query.has("sslmode") && env.PGSSLMODE) query.set("sslmode", env.PGSSLMODE);
  const enc = encodeURIComponent;
  const auth = user ? `${enc(user)}${password ? `:${enc(password)}` : ""}@` : "";
  const search = query.size ? `?${query}` : "";
  return `postgres://${auth}${host}${port ? `:${port}` : ""}/${enc(database)}${search}`;
}
