/**
 * A menu file (replyd menu set) read and checked: the platform's own {"button": [...]}, or a replyd
 * document that holds a menu — the same check on the laptop and on the server.
 */
import { InvalidDocumentError, ReplydError } from "../base/errors.ts";
import { validateMenu, type Menu } from "./menu.ts";
import { decodeUtf8 } from "./file-text.ts";
import { validateDocument, type ReducedBodies } from "./validation.ts";

/**
 * A menu file (replyd menu set): the platform's own {"button": [...]}, or a replyd document that
 * holds a menu. The same check on the laptop and on the server.
 */
export function menuFromBytes(bytes: Uint8Array): Menu {
  return menuOf(menuJson(bytes));
}

/** A menu file's JSON, parsed. */
export function menuJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch (e) {
    if (e instanceof ReplydError) throw e;
    throw new ReplydError("bad_json", `the file is not valid JSON: ${(e as Error).message}`);
  }
}

/** The menu a parsed menu file holds; a document's articles are checked with `bodies` (doc/bodies.ts). */
export function menuOf(raw: unknown, bodies?: ReducedBodies): Menu {
  if (typeof raw === "object" && raw !== null && "format" in raw) {
    const doc = validateDocument(raw, bodies);
    // 400, as every refusal of a file is (no_menu is 404: no menu stored).
    if (!doc.menu) throw new ReplydError("matter_mismatch", `the document (matter "${doc.matter}") holds no menu`);
    return doc.menu;
  }
  const { value, problems } = validateMenu(raw);
  if (value) return value;
  const e = new InvalidDocumentError(problems, "the menu is invalid; nothing was stored or pushed");
  throw new ReplydError("invalid_menu", e.message, e.details);
}
