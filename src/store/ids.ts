import type { ArticleInput } from "../article/article.ts";
import { ID_PATTERN } from "../article/article.ts";
import type { Articles } from "../doc/document.ts";
import { keyHash } from "../doc/duplicates.ts";

/** Whether an id is taken. */
export interface IdsInUse {
  has(id: string): boolean;
}

/** A readable id from the code when it fits and is free, otherwise a random one. */
export function newArticleId(code: string | null, used: IdsInUse): string {
  const fromCode = code?.toLowerCase();
  if (fromCode && ID_PATTERN.test(fromCode) && !used.has(fromCode)) return fromCode;
  for (;;) {
    const id = "a" + Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => (b % 36).toString(36)).join("");
    if (!used.has(id)) return id;
  }
}

/**
 * The ids a bulk write gives the document's records, worked out once before anything is written:
 * a record's own id, the id of the live article with its code (`liveIdOf`, when matching by code),
 * or a new one. Only the minted ones are held (by record index); every read of the document after
 * that gives each record the same id.
 */
export class DocumentIds {
  private readonly minted = new Map<number, string>();
  /** Hashes of every record's id, sorted: "is this article in the document" in 8 bytes a record. */
  private readonly hashes: Float64Array;

  constructor(
    articles: Articles,
    matchByCode: boolean,
    exists: (id: string) => boolean,
    liveIdOf: (code: string) => string | undefined,
    /** Called with every record and its id, in the same pass. */
    visit?: (record: ArticleInput, index: number, id: string) => void,
  ) {
    this.hashes = new Float64Array(articles.count);
    // Ids the document names itself, needed only to mint ids that collide with none of them.
    let named: Set<string> | null = null;
    if (articles.missingIds) {
      named = new Set();
      const into = named;
      articles.each((r) => r.id && into.add(r.id));
    }
    const mintedIds = new Set<string>();
    const used: IdsInUse = { has: (id) => (named as Set<string>).has(id) || mintedIds.has(id) || exists(id) };
    articles.each((r, index) => {
      let id = r.id;
      if (!id) {
        id = (matchByCode && r.code ? liveIdOf(r.code) : undefined) ?? newArticleId(r.code ?? null, used);
        this.minted.set(index, id);
        mintedIds.add(id);
      }
      this.hashes[index] = keyHash(id);
      visit?.(r, index, id);
    });
    this.hashes.sort();
  }

  of(record: ArticleInput, index: number): string {
    return record.id ?? (this.minted.get(index) as string);
  }

  /** False: not in the document, for certain. True: almost certainly (53-bit hashes). */
  mayHold(id: string): boolean {
    const h = keyHash(id);
    let lo = 0;
    let hi = this.hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.hashes[mid] as number) < h) lo = mid + 1;
      else hi = mid;
    }
    return this.hashes[lo] === h;
  }
}
