import { databaseUrl, DatabaseUrlError } from "../store/postgres/url.ts";
import { usage } from "./errors.ts";

/**
 * The raw string after `--name` or in `--name=value`. cac coerces numeric-looking values
 * (`--secret 0123` → 123, `--code 1e3` → 1000), so every value that is text is read here instead.
 */
export function rawOption(argv: readonly string[], ...names: string[]): string | undefined {
  return rawOptions(argv, ...names).at(-1);
}

/** Every value of an option given more than once, in order ("--after a --after b"): rawOption keeps the last. */
export function rawOptions(argv: readonly string[], ...names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") break;
    for (const name of names) {
      if (a === name) {
        const next = argv[i + 1];
        if (next === undefined) throw usage(`${name} needs a value`);
        out.push(next);
        i++;
      } else if (a.startsWith(name + "=")) out.push(a.slice(name.length + 1));
    }
  }
  return out;
}

export function numberOption(argv: readonly string[], name: string, fallback: number, min: number, max: number): number {
  const raw = rawOption(argv, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max) throw usage(`${name} must be a number from ${min} to ${max}`);
  return n;
}

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** Sizes like 64M, 512KiB or 1048576. */
export function sizeOption(argv: readonly string[], name: string, fallback: number): number {
  const raw = rawOption(argv, name);
  if (raw === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = m ? UNITS[(m[2] ?? "").toLowerCase()] : undefined;
  if (!m || unit === undefined) throw usage(`${name} must be a size like 64M, 512K or a number of bytes`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (bytes < 1024) throw usage(`${name} must be at least 1K`);
  return bytes;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** --db / REPLYD_DB completed from DATABASE_URL and PG* (store/postgres/url.ts); undefined: SQLite in --data. */
export function dbOption(value: string | undefined, env: Record<string, string | undefined>): string | undefined {
  if (value === undefined) return undefined;
  try {
    return databaseUrl(value, env);
  } catch (e) {
    throw e instanceof DatabaseUrlError ? usage(e.message) : e;
  }
}
