/**
 * Headless Chromium (Debian's `chromium`, which ./scripts/test installs) for the tests that look at
 * a page as a browser shows it: its DOM once loaded, and a screenshot. Each run has a profile of its
 * own, removed after, and nothing that reaches out on its own (updates, sync, background networking).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function chromiumPath(): string {
  const found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
  if (!found) throw new Error("Chromium is not installed (/usr/bin/chromium): ./scripts/test installs Debian's chromium package");
  return found;
}

/** The page at `file` loaded in headless Chromium: its DOM as serialised, and a screenshot `width` wide and `height` tall (PNG bytes). */
export function render(file: string, width: number, height: number): { dom: string; png: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), "replyd-chromium-"));
  try {
    const run = (what: string[]) => {
      const p = Bun.spawnSync(
        [
          chromiumPath(),
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          "--hide-scrollbars",
          `--user-data-dir=${join(dir, "profile")}`,
          `--window-size=${width},${height}`,
          ...what,
          `file://${file}`,
        ],
        { stdout: "pipe", stderr: "pipe", timeout: 90_000 },
      );
      if (p.exitCode !== 0) throw new Error(`chromium ${what[0]} failed (${p.exitCode}): ${p.stderr.toString().slice(-800)}`);
      return p.stdout.toString();
    };
    const dom = run(["--dump-dom"]);
    const shot = join(dir, "shot.png");
    run([`--screenshot=${shot}`]);
    return { dom, png: new Uint8Array(readFileSync(shot)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
