/**
 * What each HTML element does to the text a reader sees, for article/body-text.ts: which are dropped with
 * their content, which end a line or a paragraph, which never hold anything, and which a start tag
 * closes without its end tag. The last follows common HTML parsers (htmlparser2's table): a start
 * tag closes the element just opened when HTML says it cannot hold it (`<p>a<p>b`, `<li>`, cells).
 */

/** Elements whose content is not text a reader sees, read to their own end tag and dropped whole. */
export const RAW = new Set(["script", "style", "template", "noscript", "head", "svg", "math", "title", "iframe", "object"]);

/** Elements that hold nothing: they are never open, whatever the tag says. */
export const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);

/** Elements that start and end a line. */
export const LINE = new Set([
  "address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
  "form", "header", "hr", "legend", "li", "main", "nav", "ol", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
]);

/** Elements that are paragraphs of their own: a blank line before and after. */
export const PARAGRAPH = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl", "section", "article"]);

const P = new Set(["p"]);
const FORM = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);

/** For a start tag, the elements it closes while one of them is the innermost open. */
export const CLOSES: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th", "td"])],
  ["td", new Set(["thead", "th", "td"])],
  ["li", new Set(["li", "p"])],
  ["dd", new Set(["dt", "dd", "p"])],
  ["dt", new Set(["dt", "dd", "p"])],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["select", FORM],
  ["button", FORM],
  ["tbody", new Set(["thead", "tbody"])],
  ["tfoot", new Set(["thead", "tbody"])],
  ["rt", new Set(["rt", "rp"])],
  ["rp", new Set(["rt", "rp"])],
  ...[
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre", "section", "table", "ul",
  ].map((name) => [name, P] as const),
]);
