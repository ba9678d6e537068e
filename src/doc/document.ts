/**
 * The one JSON document format behind import, backup and restore (DESIGN §2): its matters, the
 * sections each holds, its members, and the shapes a document takes once validated — whole in
 * memory (ReplydDocument), or with its articles read again from their source when they are needed
 * (BulkDocument). How a document is checked is validation.ts's, read from its bytes reading.ts's,
 * written document-writer.ts's, and its sha256 digest.ts's.
 */
import type { ArticleInput } from "../article/article.ts";
import { ReplydError } from "../base/errors.ts";
import type { Menu } from "./menu.ts";
import type { Rule, Tags, Texts } from "./rule.ts";
import type { SynonymGroup } from "./synonyms.ts";

export const FORMAT = "replyd/1";
export const MATTERS = ["all", "articles", "rules", "texts", "menu", "synonyms"] as const;
export type Matter = (typeof MATTERS)[number];
export const isMatter = (m: unknown): m is Matter => typeof m === "string" && (MATTERS as readonly string[]).includes(m);

/** Which sections each matter holds; tags travel with the articles they describe. */
export const SECTIONS: Record<Matter, readonly Section[]> = {
  all: ["articles", "tags", "rules", "texts", "menu", "synonyms"],
  articles: ["articles", "tags"],
  rules: ["rules"],
  texts: ["texts"],
  menu: ["menu"],
  synonyms: ["synonyms"],
};
export type Section = "articles" | "tags" | "rules" | "texts" | "menu" | "synonyms";
/**
 * Sections a document of its matter may leave out: tags travel with articles; `all` documents
 * written before menus or synonyms existed have none.
 */
const OPTIONAL: Record<Matter, readonly Section[]> = { all: ["tags", "menu", "synonyms"], articles: ["tags"], rules: [], texts: [], menu: [], synonyms: [] };

export interface ReplydDocument {
  format: string;
  matter: Matter;
  created_at: string;
  /**
   * The account a server of several accounts took it of (a backup); absent in one a single-account
   * server wrote and in hand-written documents. Read only to warn when restored into another account.
   */
  account?: string;
  articles?: ArticleInput[];
  tags?: Tags;
  /**
   * Tags whose description a merge removes: written `"tags": {"help": null}` — a tag renamed in the file
   * had left the old one's description behind, warned of by every import and health, with no way to
   * drop it but a restore (two walkthroughs). An import with --init, which replaces them all, ignores it.
   */
  tagsRemoved?: string[];
  rules?: Rule[];
  texts?: Texts;
  /** The account's menu; null: the account has none. */
  menu?: Menu | null;
  /** The operator's synonyms (synonyms.ts). */
  synonyms?: SynonymGroup[];
  sha256?: string;
}

/** The members a document may have. */
export const TOP_LEVEL = new Set(["format", "matter", "created_at", "account", "articles", "tags", "rules", "texts", "menu", "synonyms", "sha256"]);

/** A document's articles, validated; handed over again, one by one, whenever they are needed. */
export interface Articles {
  readonly count: number;
  /** Records without an id (one is minted for each when they are written). */
  readonly missingIds: number;
  /** Every record, validated, in order (read again from the document's source when it is not in memory). */
  each(fn: (record: ArticleInput, index: number) => void): void;
  /** The same, pulled one at a time (a writer that awaits between batches). */
  values(): Iterable<ArticleInput>;
}

/** A validated document whose articles need not be in memory: what bulk writes take. */
export interface BulkDocument extends Omit<ReplydDocument, "articles"> {
  articles?: Articles;
  /** Read from a bare JSON array of articles (what import also takes): no document, no checksum. */
  bare?: true;
}

/** A document in memory as a BulkDocument. */
export function asBulk(doc: ReplydDocument): BulkDocument {
  const list = doc.articles;
  if (!list) return doc as BulkDocument;
  return { ...doc, articles: { count: list.length, missingIds: list.filter((a) => !a.id).length, each: (fn) => list.forEach(fn), values: () => list } };
}

/** Which sections a restore of `matter` replaces, and that the document holds the ones it needs. */
export function requireSections(doc: BulkDocument | ReplydDocument, matter: Matter): void {
  // A restore puts back what a backup held; a bare list of articles is no backup (data.md).
  if ("bare" in doc && doc.bare)
    throw new ReplydError("matter_mismatch", "a restore takes a replyd document (a backup); this file is a bare array of articles: to load them, replyd import it (--init to replace every article)");
  const needed = SECTIONS[matter].filter((s) => !OPTIONAL[matter].includes(s));
  const missing = needed.filter((s) => doc[s] === undefined);
  if (missing.length)
    throw new ReplydError(
      "matter_mismatch",
      `a restore of "${matter}" needs the document's ${missing.join(", ")}; this document is of matter "${doc.matter}"`,
    );
}
