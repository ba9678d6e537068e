/**
 * An English question set to tune answers on, built from what Debian ships: the Python FAQ
 * (python3.11-doc, PSF licence) and the Debian FAQ (debian-faq, GPL-2+). Each question of a FAQ is
 * a follower's question; its answer, without the question, is an article whose title is only the
 * FAQ chapter it sits in ("Programming FAQ — General Questions"), so the question's own words must
 * find the answer among a few hundred others on the same subjects. Written in the shape of
 * ../shared/eval/cmrc2018 (SQuAD-style JSON) so that bench/answers.ts reads both alike.
 *
 *   bun bench/eval-en.ts [--out bench/.cache/eval-en.json]
 *
 * The packages are fetched with `apt-get download` into bench/.cache/ (not committed).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";

const CACHE = resolve(process.cwd(), "bench/.cache");
const PACKAGES = ["python3.11-doc", "debian-faq"];

export interface Squad {
  data: { title: string; paragraphs: { context: string; qas: { question: string; id: string; answers: { text: string; answer_start: number }[] }[] }[] }[];
}

function unpacked(): string {
  const root = join(CACHE, "debs");
  const tree = join(root, "x");
  if (existsSync(join(tree, "usr/share/doc/debian/FAQ"))) return tree;
  mkdirSync(root, { recursive: true });
  execFileSync("apt-get", ["download", ...PACKAGES], { cwd: root, stdio: "ignore" });
  for (const f of readdirSync(root).filter((f) => f.endsWith(".deb"))) execFileSync("dpkg-deb", ["-x", f, "x"], { cwd: root });
  return tree;
}

const clean = (s: string) => s.replace(/\u00a0/g, " ").replace(/[ \t]+/g, " ").replace(/\n{3,}/g, "\n\n").trim();

/** reStructuredText: a question is a heading ending in "?"; its answer runs to the next heading. */
function pythonFaq(tree: string, into: Squad["data"]): void {
  const dir = join(tree, "usr/share/doc/python3.11/html/_sources/faq");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".rst.txt") && f !== "index.rst.txt")) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    let doc = file.replace(".rst.txt", "");
    let chapter = "";
    let q: string | null = null;
    let body: string[] = [];
    const flush = () => {
      const text = clean(body.join("\n").replace(/:[\w:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`/g, "$1").replace(/`([^`<]*?)\s*<[^>]*>`_/g, "$1").replace(/``/g, ""));
      if (q && text.length >= 40) into.push({ title: `${doc} — ${chapter}`.trim(), paragraphs: [{ context: text, qas: [{ question: q, id: `py-${into.length}`, answers: [] }] }] });
      q = null;
      body = [];
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      const under = lines[i + 1] ?? "";
      if (line.trim() && /^([=\-~^])\1{3,}\s*$/.test(under) && under.trim().length >= line.trim().length) {
        flush();
        const heading = line.trim();
        if (heading.endsWith("?")) q = heading;
        else if (/^=+$/.test(under.trim()) && /^=+$/.test((lines[i - 1] ?? "").trim())) doc = heading;
        else chapter = heading;
        i++;
        continue;
      }
      if (/^=+$/.test(line.trim())) continue;
      body.push(line);
    }
    flush();
  }
}

/** The Debian FAQ's text: "Chapter N. Name", then "N.M. Question?" headings (wrapped over lines). */
function debianFaq(tree: string, into: Squad["data"]): void {
  const text = gunzipSync(readFileSync(join(tree, "usr/share/doc/debian/FAQ/debian-faq.en.txt.gz"))).toString("utf8").replace(/\u00a0/g, " ");
  const lines = text.split("\n");
  let start = lines.findIndex((l) => /^Chapter 1\. /.test(l));
  let chapter = "";
  let q: string | null = null;
  let body: string[] = [];
  const flush = () => {
    const answer = clean(body.join("\n"));
    if (q && q.endsWith("?") && answer.length >= 40) into.push({ title: `Debian FAQ — ${chapter}`, paragraphs: [{ context: answer, qas: [{ question: q, id: `deb-${into.length}`, answers: [] }] }] });
    q = null;
    body = [];
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] as string;
    const ch = /^Chapter \d+\. (.*)$/.exec(line);
    if (ch) {
      flush();
      chapter = (ch[1] as string).trim();
      continue;
    }
    const h = /^\d+\.\d+(?:\.\d+)?\. (.*)$/.exec(line);
    if (h) {
      flush();
      let heading = (h[1] as string).trim();
      while ((lines[i + 1] ?? "").trim() && !/^\s{2,}/.test(lines[i + 1] as string)) heading += " " + (lines[++i] as string).trim();
      q = heading;
      continue;
    }
    body.push(line);
  }
  flush();
}

export function buildEnglishSet(): Squad {
  const tree = unpacked();
  const data: Squad["data"] = [];
  pythonFaq(tree, data);
  debianFaq(tree, data);
  return { data };
}

if (import.meta.main) {
  const at = process.argv.indexOf("--out");
  const out = at > 0 ? (process.argv[at + 1] as string) : join(CACHE, "eval-en.json");
  const set = buildEnglishSet();
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(out, JSON.stringify(set));
  process.stdout.write(`${set.data.length} questions written to ${out}\n`);
}
