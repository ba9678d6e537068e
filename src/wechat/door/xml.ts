/**
 * A strict reader for the platform's message XML: one <xml> root, elements holding text or CDATA,
 * nesting at most MAX_DEPTH. No DOCTYPE, no entity declarations, no processing instructions beyond
 * the XML declaration, no character XML 1.0 forbids: hostile input is refused, never expanded.
 *
 * The platform's deepest documented message nests five levels (the photo menu events'
 * <xml><SendPicsInfo><PicList><item><PicMd5Sum>, the mass-send report's
 * <xml><CopyrightCheckResult><ResultList><item>…); MAX_DEPTH leaves room for more without letting
 * recursion grow with the body.
 */

import { knownNames } from "./interned-names.ts";

export type XmlNode = { [name: string]: string | XmlNode };

export class XmlError extends Error {}

export const MAX_DEPTH = 8;
export const MAX_ELEMENTS = 512;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

const REFERENCE = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{0,15});/y;

/** One pass over the text: every & must start a predefined entity or a character reference. */
function decodeText(raw: string): string {
  let out = "";
  let from = 0;
  for (let at = raw.indexOf("&"); at >= 0; at = raw.indexOf("&", from)) {
    out += raw.slice(from, at);
    REFERENCE.lastIndex = at;
    const m = REFERENCE.exec(raw);
    if (!m) throw new XmlError("a bare & in text");
    const ref = m[1] as string;
    if (ref[0] === "#") {
      const code = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!isXmlChar(code)) throw new XmlError("a character reference to a character XML forbids");
      out += String.fromCodePoint(code);
    } else {
      // Its own five only: "constructor" or "toString" are the object's, not entities (a review had &constructor; read as a function's text).
      const v = Object.hasOwn(PREDEFINED, ref) ? PREDEFINED[ref] : undefined;
      if (v === undefined) throw new XmlError(`undeclared entity &${ref};`);
      out += v;
    }
    from = at + m[0].length;
  }
  return out + raw.slice(from);
}

/** XML 1.0's Char production: tab, LF, CR, and the rest of Unicode from U+0020 but surrogates, U+FFFE and U+FFFF. */
function isXmlChar(code: number): boolean {
  if (code < 0x20) return code === 9 || code === 10 || code === 13;
  return code <= 0xd7ff || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * Characters XML 1.0 forbids anywhere in a document (CDATA included): C0 controls but tab, LF and
 * CR, and U+FFFE/U+FFFF. An ESC in a follower's text would reach an operator's terminal through the
 * inbox. (Lone surrogates cannot occur: the body was decoded as strict UTF-8.)
 */
const FORBIDDEN_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

// The reader's cursor. Module state rather than closures: no allocation per call beyond the result.
let src = "";
let at = 0;
let elements = 0;
/** The name of the element readElement() just read (returned beside its value without a tuple). */
let lastName = "";

const LT = 60; // <
const GT = 62; // >
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;

function skipSpace(): void {
  while (isSpace(src.charCodeAt(at))) at++;
}

/** The element names the platform sends (see interned-names.ts for why they are returned as constants). */
const knownName = knownNames([
  "xml", "ToUserName", "FromUserName", "CreateTime", "MsgType", "MsgId", "MsgID", "MsgDataId", "Idx", "Content", "Recognition",
  "PicUrl", "MediaId", "Format", "ThumbMediaId", "Location_X", "Location_Y", "Scale", "Label", "Title", "Description", "Url",
  "Event", "EventKey", "Ticket", "Latitude", "Longitude", "Precision", "Encrypt", "AgentID", "MenuId", "ScanCodeInfo", "ScanType",
  "ScanResult", "SendPicsInfo", "Count", "PicList", "item", "PicMd5Sum", "SendLocationInfo", "Poiname", "Status", "MediaId16K",
]);

function readName(): string {
  const start = at;
  if (!isNameStart(src.charCodeAt(at))) throw new XmlError(`expected a name at ${at}`);
  while (isNameChar(src.charCodeAt(++at)));
  return knownName(src, start, at) ?? src.slice(start, at);
}

function skipComment(): void {
  const end = src.indexOf("-->", at + 4);
  if (end < 0) throw new XmlError("unterminated comment");
  at = end + 3;
}

function skipComments(): void {
  for (;;) {
    skipSpace();
    if (!src.startsWith("<!--", at)) return;
    skipComment();
  }
}

/**
 * The common case, read without building text: the element holds exactly one CDATA section or one
 * run of text without references, followed at once by `</name>`. Null (cursor unmoved) otherwise,
 * and the general reader takes over.
 */
function readLeaf(name: string): string | null {
  let value: string;
  let end: number;
  if (src.charCodeAt(at) === LT) {
    if (!src.startsWith("<![CDATA[", at)) return null;
    const close = src.indexOf("]]>", at + 9);
    if (close < 0) return null;
    value = src.slice(at + 9, close);
    end = close + 3;
  } else {
    end = src.indexOf("<", at);
    if (end < 0) return null;
    value = src.slice(at, end);
    if (value.includes("&")) return null;
  }
  if (src.charCodeAt(end + 1) !== SLASH || src.charCodeAt(end) !== LT || !src.startsWith(name, end + 2) || src.charCodeAt(end + 2 + name.length) !== GT) return null;
  at = end + 3 + name.length;
  lastName = name;
  return value;
}

/** Reads one element at the cursor; its name is left in `lastName`, its text or children returned. */
function readElement(depth: number): string | XmlNode {
  if (++elements > MAX_ELEMENTS) throw new XmlError("too many elements");
  if (depth > MAX_DEPTH) throw new XmlError("nested too deeply");
  if (src.charCodeAt(at) !== LT) throw new XmlError(`expected < at ${at}`);
  at++;
  const name = readName();
  skipSpace();
  if (src.charCodeAt(at) === SLASH && src.charCodeAt(at + 1) === GT) {
    at += 2;
    lastName = name;
    return "";
  }
  if (src.charCodeAt(at) !== GT) throw new XmlError(`expected > at ${at}`);
  at++;
  const leaf = readLeaf(name);
  if (leaf !== null) return leaf;
  let textContent = "";
  let children: XmlNode | null = null;
  for (;;) {
    const c = src.charCodeAt(at);
    if (c !== LT) {
      if (at >= src.length) throw new XmlError(`unterminated <${name}>`);
      const next = src.indexOf("<", at);
      if (next < 0) throw new XmlError(`unterminated <${name}>`);
      textContent += decodeText(src.slice(at, next));
      at = next;
      continue;
    }
    const c1 = src.charCodeAt(at + 1);
    if (c1 === BANG) {
      if (src.startsWith("<![CDATA[", at)) {
        const end = src.indexOf("]]>", at + 9);
        if (end < 0) throw new XmlError("unterminated CDATA");
        textContent += src.slice(at + 9, end);
        at = end + 3;
      } else if (src.startsWith("<!--", at)) skipComment();
      else throw new XmlError("markup declarations are not accepted");
    } else if (c1 === SLASH) {
      at += 2;
      // The closing name must be exactly the opening one, not merely start with it.
      if (!src.startsWith(name, at) || isNameChar(src.charCodeAt(at + name.length))) throw new XmlError(`<${name}> is not closed by its own end tag`);
      at += name.length;
      skipSpace();
      if (src.charCodeAt(at) !== GT) throw new XmlError(`expected > at ${at}`);
      at++;
      lastName = name;
      // Text beside child elements (seen in messages relayed from the web client) is not a field: dropped.
      return children === null ? textContent : children;
    } else if (c1 === QUESTION) throw new XmlError("processing instructions are not accepted");
    else {
      const value = readElement(depth + 1);
      // No prototype: an element named __proto__ or constructor is just a field.
      children ??= Object.create(null) as XmlNode;
      // Repeated elements (a PicList's <item>s, a report's <List>s): the first one is kept.
      if (!(lastName in children)) children[lastName] = value;
    }
  }
}

/**
 * Reads the platform's message XML. DOCTYPE, entity declarations and processing instructions are
 * refused where markup may stand (outside CDATA and comments); text may hold only the predefined
 * entities and character references.
 */
export function parseXml(text: string): XmlNode {
  if (FORBIDDEN_CHAR.test(text)) throw new XmlError("a character XML 1.0 forbids (a control character)");
  src = text;
  at = 0;
  elements = 0;
  try {
    skipSpace();
    if (src.startsWith("<?xml", at)) {
      const end = src.indexOf("?>", at);
      if (end < 0) throw new XmlError("unterminated XML declaration");
      at = end + 2;
    }
    skipComments();
    if (src.charCodeAt(at) === LT && src.charCodeAt(at + 1) === BANG) throw new XmlError("DOCTYPE and entity declarations are not accepted");
    const value = readElement(1);
    if (lastName !== "xml") throw new XmlError("the root element must be <xml>");
    skipComments();
    if (at !== src.length) throw new XmlError("content after the root element");
    return typeof value === "string" ? {} : value;
  } finally {
    src = ""; // let the collector have the body
  }
}

/** CDATA that stays CDATA whatever the text holds (a "]]>" inside is split across two sections). */
export function cdata(s: string): string {
  return s.includes("]]>") ? `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>` : `<![CDATA[${s}]]>`;
}
