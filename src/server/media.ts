
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
