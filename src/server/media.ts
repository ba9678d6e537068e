import { statSync } from "node:fs";
import { join } from "node:path";

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

/**
 * A declared account's file, `/media/NAME/…`, from that account's media folder alone (a server
 * with [accounts]; one account keeps `/media/…`). The path has passed isSafeMediaPath (plain
 * segments only), so it cannot leave the folder; what the static plugin adds (caching, nosniff,
 * 304) is added here.
 */
export function accountMedia(request: Request, path: string, dirs: ReadonlyMap<string, string>): Response | null {
  const [account = "", ...rest] = decodeURIComponent(path.slice("/media/".length)).split("/");
  const dir = dirs.get(account);
  if (!dir || !rest.length) return null;
  const file = join(dir, ...rest);
  try {
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  const response = new Response(Bun.file(file), { headers: { "cache-control": "public, max-age=86400" } });
  return mediaFreshness(request, response, dir, `/media/${rest.join("/")}`) ?? response;
}
