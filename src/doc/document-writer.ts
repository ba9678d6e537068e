/**
 * A document written piece by piece (a backup of any size), hashed as it goes: what it writes
 * parses back to the same keys in the same order, so the sha256 it appends verifies (digest.ts).
 */
import { FORMAT, type Matter, type Section } from "./document.ts";

/**
 * Writes a document piece by piece, hashing as it goes, so a backup of any size streams through
 * a bounded buffer. The output parses back to the same keys in the same order, so its sha256 verifies.
 */
export class DocumentWriter {
  private readonly hasher = new Bun.CryptoHasher("sha256");

  constructor(
    private readonly sink: (chunk: string) => void,
    matter: Matter,
    createdAt: string,
    /** The account it is of, on a server of several accounts (document.ts `account`). */
    account?: string,
  ) {
    this.emit(`{"format":${JSON.stringify(FORMAT)},"matter":${JSON.stringify(matter)},"created_at":${JSON.stringify(createdAt)}${account === undefined ? "" : `,"account":${JSON.stringify(account)}`}`);
  }

  private emit(chunk: string): void {
    this.hasher.update(chunk);
    this.sink(chunk);
  }

  field(name: Section, value: unknown): void {
    this.emit(`,${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }

  array<T>(name: Section, items: Iterable<T>, encode: (item: T) => unknown = (x) => x): number {
    const add = this.opened(name);
    for (const item of items) add(encode(item));
    return this.closed();
  }

  private count = 0;
  private items: string[] = [];

  /** An array written item by item, for items that arrive in pages (from another database): close it with closed(). */
  opened(name: Section): (item: unknown) => void {
    this.emit(`,${JSON.stringify(name)}:[`);
    this.count = 0;
    return (item) => {
      this.items.push((this.count++ ? "," : "") + JSON.stringify(item));
      // Hashed and handed on a few hundred items at a time: a call into the hasher per article cost
      // a quarter of a million-article backup.
      if (this.items.length === 512) this.flushItems();
    };
  }

  private flushItems(): void {
    if (!this.items.length) return;
    this.emit(this.items.join(""));
    this.items = [];
  }

  /** Closes the array opened last; answers how many items it holds. */
  closed(): number {
    this.flushItems();
    this.emit("]");
    return this.count;
  }

  /** Closes the document and returns its sha256. */
  finish(): string {
    this.hasher.update("}");
    const sha = this.hasher.digest("hex");
    this.sink(`,"sha256":"${sha}"}`);
    return sha;
  }
}
