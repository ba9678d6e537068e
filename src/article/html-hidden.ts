/**
 * Whether a start tag's attributes hide its element, and so everything in it, from a reader: the
 * `hidden` attribute (any value), `aria-hidden="true"`, or a `style` that sets `display: none` or
 * `visibility: hidden` (or `collapse`). Attribute values are read as a browser reads them: quoted or
 * not, character references decoded (`display&#58;none`), the first of a repeated attribute
 * counting; in a style, comments are dropped, case and spacing ignored, the last declaration of a
 * property wins unless an earlier one is `!important`; a style longer than 16 KiB hides. Other ways to make text invisible (a zero
 * size, no opacity, text the colour of its background) are not looked for.
 *
 * Linear in the tag, whatever it holds.
 */
import { decodeEntities } from "./html-entities.ts";

/** Characters of a style attribute read; a longer one hides its element. */
export const LONGEST_STYLE = 16 * 1024;

/** Only these attributes can hide an element: a tag naming none of them is not read. */
const MAY_HIDE = /hidden|style/i;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/** Whether the attributes in `html` from `from` (past the tag's name) to `to` (its `>`) hide the element. */
export function hidesElement(html: string, from: number, to: number): boolean {
  if (to <= from) return false;
  const attrs = html.slice(from, to);
  if (!MAY_HIDE.test(attrs)) return false;
  const seen = new Set<string>();
  let i = 0;
  const n = attrs.length;
  while (i < n) {
    const c = attrs.charCodeAt(i);
    if (isSpace(c) || c === 0x2f /* / */) {
      i++;
      continue;
    }
    // A name runs to white space, "/", ">" or "=" (a first "=" belongs to it, as HTML reads it).
    const nameStart = i++;
    while (i < n && !isSpace(attrs.charCodeAt(i)) && !"/=>".includes(attrs[i] as string)) i++;
    const name = attrs.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(attrs.charCodeAt(i))) i++;
    let value = "";
    if (attrs[i] === "=") {
      i++;
      while (i < n && isSpace(attrs.charCodeAt(i))) i++;
      const q = attrs[i];
      if (q === '"' || q === "'") {
        const close = attrs.indexOf(q, i + 1);
        const end = close < 0 ? n : close;
        value = attrs.slice(i + 1, end);
        i = end + 1;
      } else {
        const valueStart = i;
        while (i < n && !isSpace(attrs.charCodeAt(i)) && attrs[i] !== ">") i++;
        value = attrs.slice(valueStart, i);
      }
    }
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === "hidden") return true;
    if (name === "aria-hidden" && decodeEntities(value).trim().toLowerCase() === "true") return true;
    // No style a reader is shown is that long, and reading one costs what a body does: it hides.
    if (name === "style" && (value.length > LONGEST_STYLE || styleHides(decodeEntities(value)))) return true;
  }
  return false;
}

/** Whether a style attribute's declarations hide the element. */
export function styleHides(css: string): boolean {
  const declared = new Map<string, { value: string; important: boolean }>();
  for (const declaration of withoutComments(css).toLowerCase().split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim();
    if (property !== "display" && property !== "visibility") continue;
    let value = declaration.slice(colon + 1).trim();
    const bang = value.lastIndexOf("!");
    const important = bang >= 0 && value.slice(bang + 1).trim() === "important";
    if (important) value = value.slice(0, bang).trim();
    const before = declared.get(property);
    if (!before?.important || important) declared.set(property, { value, important });
  }
  const visibility = declared.get("visibility")?.value;
  return declared.get("display")?.value === "none" || visibility === "hidden" || visibility === "collapse";
}

/** CSS without its comments; one never closed runs to the end. */
function withoutComments(css: string): string {
  if (!css.includes("/*")) return css;
  let out = "";
  let i = 0;
  for (;;) {
    const open = css.indexOf("/*", i);
    if (open < 0) return out + css.slice(i);
    out += css.slice(i, open);
    const close = css.indexOf("*/", open + 2);
    if (close < 0) return out;
    // A comment separates what is on either side of it, as white space would.
    out += " ";
    i = close + 2;
  }
}
