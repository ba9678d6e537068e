/**
 * A strict reader for the platform's message XML: one <xml> root, elements holding text or CDATA,
 * nesting at most MAX_DEPTH. No DOCTYPE, no entity declarations, no processing instructions beyond
 * the XML declaration: hostile input is refused, never expanded.
 */

export type XmlNode = { [name: string]: string | XmlNode };

export class XmlError extends Error {}

const MAX_DEPTH = 4;
const MAX_ELEMENTS = 256;
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
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new XmlError("bad character reference");
      out += String.fromCodePoint(code);
    } else {
      const v = PREDEFINED[ref];
      if (v === undefined) throw new XmlError(`undeclared entity &${ref};`);
      out += v;
    }
    from = at + m[0].length;
  }
  return out + raw.slice(from);
}

export function parseXml(text: string): XmlNode {
  if (/<!DOCTYPE|<!ENTITY|<!ATTLIST|<!ELEMENT/i.test(text)) throw new XmlError("DOCTYPE and entity declarations are not accepted");
  let pos = 0;
  let elements = 0;
  // Character codes, not regexes: this runs for every byte of every follower message.
  const skipSpace = () => {
    for (let c = text.charCodeAt(pos); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++pos));
  };
  const expect = (s: string) => {
    if (!text.startsWith(s, pos)) throw new XmlError(`expected ${s} at ${pos}`);
    pos += s.length;
  };
  const isNameChar = (c: number, first: boolean) =>
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (!first && ((c >= 48 && c <= 57) || c === 46 || c === 45));
  const readName = (): string => {
    const start = pos;
    if (!isNameChar(text.charCodeAt(pos), true)) throw new XmlError(`expected a name at ${pos}`);
    while (isNameChar(text.charCodeAt(++pos), false));
    return text.slice(start, pos);
  };
  const skipComments = () => {
    for (;;) {
      skipSpace();
      if (!text.startsWith("<!--", pos)) return;
      const end = text.indexOf("-->", pos + 4);
      if (end < 0) throw new XmlError("unterminated comment");
      pos = end + 3;
    }
  };

  // Returns the element's content: text, or a node of children.
  const readElement = (depth: number): [string, string | XmlNode] => {
    if (++elements > MAX_ELEMENTS) throw new XmlError("too many elements");
    if (depth > MAX_DEPTH) throw new XmlError("nested too deeply");
    expect("<");
    const name = readName();
    skipSpace();
    if (text.startsWith("/>", pos)) {
      pos += 2;
      return [name, ""];
    }
    expect(">");
    let textContent = "";
    const children: XmlNode = {};
    let hasChildren = false;
    for (;;) {
      if (pos >= text.length) throw new XmlError(`unterminated <${name}>`);
      if (text.startsWith("<![CDATA[", pos)) {
        const end = text.indexOf("]]>", pos + 9);
        if (end < 0) throw new XmlError("unterminated CDATA");
        textContent += text.slice(pos + 9, end);
        pos = end + 3;
      } else if (text.startsWith("<!--", pos)) skipComments();
      else if (text.startsWith("</", pos)) {
        pos += 2;
        const close = readName();
        if (close !== name) throw new XmlError(`</${close}> closes <${name}>`);
        skipSpace();
        expect(">");
        if (hasChildren) {
          if (textContent.trim()) throw new XmlError(`<${name}> mixes text and elements`);
          return [name, children];
        }
        return [name, textContent];
      } else if (text[pos] === "<") {
        if (text[pos + 1] === "?" || text[pos + 1] === "!") throw new XmlError("markup declarations are not accepted");
        const [childName, value] = readElement(depth + 1);
        // Repeated elements (news <item>s) are not part of inbound messages; the first one wins.
        if (!(childName in children)) children[childName] = value;
        hasChildren = true;
      } else {
        const next = text.indexOf("<", pos);
        if (next < 0) throw new XmlError(`unterminated <${name}>`);
        textContent += decodeText(text.slice(pos, next));
        pos = next;
      }
    }
  };

  skipSpace();
  if (text.startsWith("<?xml", pos)) {
    const end = text.indexOf("?>", pos);
    if (end < 0) throw new XmlError("unterminated XML declaration");
    pos = end + 2;
  }
  skipComments();
  const [root, value] = readElement(1);
  if (root !== "xml") throw new XmlError("the root element must be <xml>");
  skipComments();
  skipSpace();
  if (pos !== text.length) throw new XmlError("content after the root element");
  return typeof value === "string" ? {} : value;
}

/** CDATA that stays CDATA whatever the text holds (a "]]>" inside is split across two sections). */
export function cdata(s: string): string {
  return s.includes("]]>") ? `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>` : `<![CDATA[${s}]]>`;
}
