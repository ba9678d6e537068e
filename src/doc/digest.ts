/**
 * A document's sha256: the hex digest of its compact JSON with the `sha256` field removed, keys in
 * the order written, which is what JSON.stringify(JSON.parse(text)) reproduces. The scanner
 * (scanner.ts) and the writer (document-writer.ts) compute the same digest piece by piece.
 */

export function sha256hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

export function documentDigest(doc: object): string {
  const { sha256: _omit, ...rest } = doc as Record<string, unknown>;
  return sha256hex(JSON.stringify(rest));
}
