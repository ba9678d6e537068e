import { existsSync } from "node:fs";
import { join } from "node:path";
import { sha256hex } from "../doc/digest.ts";
import { ReplydError } from "../base/errors.ts";
import { atomicWrite } from "../base/fsutil.ts";

/** Image types accepted for upload, recognised by their first bytes, never by name or declared type. */
export function sniffImage(b: Uint8Array): { type: string; ext: string } | null {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0xff, 0xd8, 0xff)) return { type: "image/jpeg", ext: "jpg" };
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { type: "image/png", ext: "png" };
  if (starts(0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return { type: "image/gif", ext: "gif" };
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return { type: "image/webp", ext: "webp" };
  return null;
}

/** Media names are generated: 32 hex digits of the content's sha256 and the sniffed extension. */
export const MEDIA_NAME = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

export interface StoredMedia {
  name: string;
  url: string;
  type: string;
  size: number;
  existed: boolean;
}

/** An upload checked as an image: its type by content, its name from its content (so uploading twice is harmless). */
export function mediaOf(bytes: Uint8Array, maxBytes: number): { name: string; type: string } {
  if (bytes.length > maxBytes) throw new ReplydError("too_large", `the image is larger than the ${maxBytes}-byte media limit`);
  const kind = sniffImage(bytes);
  if (!kind) throw new ReplydError("bad_media", "only JPEG, PNG, GIF and WebP images are accepted (checked by content)");
  return { name: `${sha256hex(bytes).slice(0, 32)}.${kind.ext}`, type: kind.type };
}

/** Writes a media file into the folder it is served from, unless it is there; answers whether it was. */
export function writeMediaFile(mediaDir: string, name: string, bytes: Uint8Array): boolean {
  const path = join(mediaDir, name);
  if (existsSync(path)) return true;
  atomicWrite(path, (w) => w(bytes));
  return false;
}

export const mediaUrl = (publicBase: string, name: string) => `${publicBase.replace(/\/+$/, "")}/media/${name}`;

