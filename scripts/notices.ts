/**
 * NOTICES.md's packages: every package the binary may carry — package.json's dependencies, theirs
 * and their required peers, as node_modules holds them — with its licence file, as MIT, BSD and
 * Apache ask of a copy. The part above "## Packages" (the word data) is written by hand.
 *
 *   bun scripts/notices.ts [--write]     (prints what is missing or changed; --write rewrites the section)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const MARK = "## Packages";

interface Pkg {
  name: string;
  version: string;
  license: string;
  text: string;
}

const manifest = (name: string) => JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as Record<string, unknown>;

/** The production closure: dependencies and non-optional peers, each once, by name. */
export function carried(): Pkg[] {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const seen = new Map<string, Pkg>();
  const visit = (name: string) => {
    if (seen.has(name) || !existsSync(join(ROOT, "node_modules", name, "package.json"))) return;
    const m = manifest(name);
    const file = readdirSync(join(ROOT, "node_modules", name)).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    seen.set(name, { name, version: String(m.version), license: String(m.license ?? "see its package"), text: file ? readFileSync(join(ROOT, "node_modules", name, file), "utf8").trim() : "" });
    const optional = (m.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    for (const d of Object.keys((m.dependencies ?? {}) as object)) visit(d);
    for (const d of Object.keys((m.peerDependencies ?? {}) as object)) if (!optional[d]?.optional) visit(d);
  };
  for (const d of Object.keys(root.dependencies)) visit(d);
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

export function packagesSection(pkgs: readonly Pkg[]): string {
  const lines = [MARK, "", "The JavaScript packages the binary is built with (package.json's dependencies, theirs and their", "peers; `bun scripts/notices.ts --write` makes this section), each with its licence as it ships it.", ""];
  for (const p of pkgs) {
    lines.push(`### ${p.name} ${p.version} (${p.license})`, "");
    if (p.text) lines.push("```", p.text, "```", "");
    else lines.push("(no licence file in the package; its package.json says " + p.license + ")", "");
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const path = join(ROOT, "NOTICES.md");
  const now = readFileSync(path, "utf8");
  const at = now.indexOf(MARK);
  const head = (at < 0 ? now : now.slice(0, at)).trimEnd();
  const next = `${head}\n\n${packagesSection(carried())}`;
  if (process.argv.includes("--write")) writeFileSync(path, next);
  console.log(next === now ? "NOTICES.md is up to date" : process.argv.includes("--write") ? "NOTICES.md written" : "NOTICES.md differs: bun scripts/notices.ts --write");
}
