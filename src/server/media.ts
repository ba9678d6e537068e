import { statSync } from "node:fs";
import { join } from "node:path";

import { MEDIA_NAME } from "../store/media.ts";

export { MEDIA_NAME, sniffImage, type StoredMedia } from "../store/media.ts";

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Only plain names are served from the media folder: every path segment starts with a letter,
 * digit, _ or - (so no "..", no dotfiles), and percent-encoding cannot smuggle a "/" or "\\" in.
 */
export function isSafeMediaPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (!decoded.startsWith("/media/") || decoded.includes("\\") || decoded.includes("\0")) return false;
  const segments = decoded.slice("/media/".length).split("/");
  return segments.length <= 4 && segments.every((s) => SEGMENT.test(s));
}

/**
 * What the static plugin leaves out of a served picture: Last-Modified and nosniff, and a 304 for a
 * conditional request (it answers repeat requests from its cache without looking at them). Undefined:
 * the response stands as it is.
 */
export function mediaFreshness(request: Request, response: Response, mediaDir: string, path: string): Response | undefined {
  let mtime: Date;
  try {
    mtime = statSync(join(mediaDir, decodeURIComponent(path.slice("/media/".length)))).mtime;
  } catch {
    return undefined;
  }
  const lastModified = mtime.toUTCString();
  response.headers.set("last-modified", lastModified);
  response.headers.set("x-content-type-options", "nosniff");
  const etag = response.headers.get("etag");
  const ifNoneMatch = request.headers.get("if-none-match");
  const ifModifiedSince = Date.parse(request.headers.get("if-modified-since") ?? "");
  const fresh = ifNoneMatch
    ? etag !== null && ifNoneMatch.split(",").some((v) => v.trim() === etag || v.trim() === "*")
    : !Number.isNaN(ifModifiedSince) && Math.floor(mtime.getTime() / 1000) * 1000 <= ifModifiedSince;
  return fresh ? new Response(null, { status: 304, headers: { ...(etag ? { etag } : {}), "last-modified": lastModified } }) : undefined;
}

/** An account's pictures as the server of several accounts serves them: where they are, and a fetch from where they are kept (PostgreSQL). */
export interface MediaAccount {
  dir: string;
  /** Brings a file kept in the database into `dir`; whether the account has it. */
  fetch(name: string): Promise<boolean>;
}

/**
 * A picture on a server with [accounts] (one account keeps `/media/…` and the static plugin).
 * `/media/NAME/FILE` is account NAME's, from its folder alone (fetched there first when kept in
 * the database, as on one account: another instance of a cluster may have taken the upload).
 * A bare `/media/FILE` is what the folder of a server of one account served before it was moved
 * under an account: articles and sent messages still name it, so it is served from the account
 * whose folder holds it — names are the content's hash, so any account holding it holds the same bytes.
 * The path has passed isSafeMediaPath (plain segments only), so it cannot leave a folder; what the
 * static plugin adds (caching, nosniff, 304) is added here.
 */
export async function accountMedia(request: Request, path: string, accounts: ReadonlyMap<string, MediaAccount>): Promise<Response | null> {
  const segments = decodeURIComponent(path.slice("/media/".length)).split("/");
  const [first = "", ...rest] = segments;
  if (rest.length) {
    const account = accounts.get(first);
    if (!account) return null;
    const name = rest.join("/");
    if (MEDIA_NAME.test(name)) await account.fetch(name).catch(() => false);
    return served(request, account.dir, name);
  }
  if (!MEDIA_NAME.test(first)) return null;
  // From the folders only: asking every account's database for a name nobody holds would let any
  // request cost a query per account (a moved SQLite folder has its pictures on disk).
  for (const account of accounts.values()) {
    const found = served(request, account.dir, first);
    if (found) return found;
  }
  return null;
}

function served(request: Request, dir: string, name: string): Response | null {
  const file = join(dir, name);
  try {
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  const response = new Response(Bun.file(file), { headers: { "cache-control": "public, max-age=86400" } });
  return mediaFreshness(request, response, dir, `/media/${name}`) ?? response;
}
