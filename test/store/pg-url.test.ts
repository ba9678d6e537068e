import { expect, test } from "bun:test";
import { databaseUrl, DatabaseUrlError } from "../../src/store/postgres/url.ts";

test("a complete URL is used as given", () => {
  const url = "postgres://replyd:s%40cret@db.internal:6432/replyd?sslmode=require";
  expect(databaseUrl(url, { PGHOST: "other", PGPASSWORD: "x", PGSSLMODE: "disable" })).toBe(url);
});

test("parts the URL leaves out come from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE and PGSSLMODE", () => {
  const env = { PGHOST: "db.internal", PGPORT: "6432", PGUSER: "replyd", PGPASSWORD: "p@ss:word", PGDATABASE: "wx", PGSSLMODE: "require" };
  expect(databaseUrl("postgres://", env)).toBe("postgres://replyd:p%40ss%3Aword@db.internal:6432/wx?sslmode=require");
  expect(databaseUrl("postgresql:///other", env)).toBe("postgres://replyd:p%40ss%3Aword@db.internal:6432/other?sslmode=require");
  expect(databaseUrl("postgres://me@host/db", env)).toBe("postgres://me:p%40ss%3Aword@host:6432/db?sslmode=require");
});

test("postgres:// alone takes DATABASE_URL, itself completed from PG*", () => {
  expect(databaseUrl("postgres://", { DATABASE_URL: "postgres://app@pg.example:5433/accounts", PGPASSWORD: "pw" })).toBe("postgres://app:pw@pg.example:5433/accounts");
  // A URL that says anything at all is not replaced by DATABASE_URL.
  expect(databaseUrl("postgres://localhost/mine", { DATABASE_URL: "postgres://app@pg.example/accounts" })).toBe("postgres://localhost/mine");
  expect(() => databaseUrl("postgres://", { DATABASE_URL: "mysql://x/y" })).toThrow(DatabaseUrlError);
});

test("nothing given anywhere: localhost, and the database named after the user (as libpq)", () => {
  expect(databaseUrl("postgres://", {})).toBe("postgres://localhost/");
  expect(databaseUrl("postgres://", { PGUSER: "ops" })).toBe("postgres://ops@localhost/ops");
});

test("refused with a clear message: not postgres, a socket folder, a bad port, broken encoding", () => {
  const refusal = (value: string, env: Record<string, string> = {}) => {
    try {
      databaseUrl(value, env);
      return "accepted";
    } catch (e) {
      return e instanceof DatabaseUrlError ? e.message : `other: ${e}`;
    }
  };
  expect(refusal("mysql://h/db")).toContain("must be a postgres:// URL");
  expect(refusal("postgres://", { PGHOST: "/var/run/postgresql" })).toContain("socket folder");
  expect(refusal("postgres://", { PGPORT: "54x" })).toContain("port must be a number");
  expect(refusal("postgres://h:/db")).toBe("accepted");
  expect(refusal("postgres://u:%zz@h/db")).toContain("not valid percent-encoding");
  expect(refusal("postgres://h/db#frag")).toContain("malformed");
});
