/**
 * The listening server's door for everything but the callback (which Bun's router takes straight
 * to its handler): the Host header is checked, and the path is read once, here, so that the router,
 * the media guard, the signature and the log all see the same one.
 *
 * Bun builds request.url from the Host header and the request line (dot segments resolved). With no
 * usable Host it is relative ("/healthz"), which `new URL()` refuses; with a short host
 * ("http://x/zz/media/.env") Elysia's router, which looks for the path from the 11th character on,
 * reads "/media/.env" while everything else reads "/zz/media/.env". Such a request is rebuilt on a
 * fixed origin before the router sees it.
 */

// A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;
/** Where Elysia starts looking for the path ("https://".length + 3). */
const ROUTER_PATH_FROM = 11;
const ORIGIN = "http://replyd.invalid";

export type DoorResult = { ok: true; request: Request; path: string } | { ok: false; path: string; message: string };

/** The path part of a request URL (no query), without throwing on any input. */
export function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  const start = scheme < 0 ? (url.startsWith("/") ? 0 : -1) : url.indexOf("/", scheme + 3);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? url.length : query);
}

export function checkRequest(request: Request): DoorResult {
  const url = request.url;
  const path = pathOf(url);
  const host = request.headers.get("host");
  if (host === null || host === "") return { ok: false, path, message: "the request has no Host header" };
  const m = HOST.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535) || url.startsWith("/")) return { ok: false, path, message: "the Host header is not a valid host[:port]" };
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start >= ROUTER_PATH_FROM) return { ok: true, request, path };
  return { ok: true, request: new Request(ORIGIN + url.slice(start), request), path };
}
