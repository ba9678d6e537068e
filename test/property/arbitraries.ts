import fc from "fast-check";
import { CONTROL_CHAR } from "../../src/article/article.ts";

/** Text as operators write it: any Unicode except lone surrogates and control characters, trimmed non-empty where required. */
const text = (min: number, max: number) =>
  fc.string({ unit: "grapheme", minLength: min, maxLength: max }).filter((s) => [...s].length <= max && (min === 0 || s.trim().length > 0) && !CONTROL_CHAR.test(s));

export const articleArb = fc.record(
  {
    id: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/),
    code: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,11}$/), { nil: undefined }),
    tag: fc.option(fc.stringMatching(/^[a-z0-9]{1,16}$/), { nil: undefined }),
    title: text(1, 64),
    description: fc.option(text(0, 512), { nil: undefined }),
    url: fc.webUrl({ validSchemes: ["http", "https"] }),
    picurl: fc.option(fc.webUrl({ validSchemes: ["https"] }), { nil: undefined }),
    keywords: fc.option(fc.array(text(1, 16).map((w) => w.trim()).filter((w) => w.length > 0 && !w.includes(",")), { maxLength: 6 }), { nil: undefined }),
    deleted: fc.option(fc.boolean(), { nil: undefined }),
  },
  { requiredKeys: ["id", "title", "url"] },
);

/** A valid document: ids unique, live codes unique ignoring case. */
export const documentArb = fc
  .record({
    articles: fc.uniqueArray(articleArb, { selector: (a) => a.id, maxLength: 25 }),
    tags: fc.dictionary(fc.stringMatching(/^[a-z0-9]{1,16}$/), text(0, 40).filter((s) => !/[\r\n]/.test(s)), { maxKeys: 5 }),
    texts: fc.record({ welcome: text(1, 200), help: text(1, 200) }, { requiredKeys: [] }),
  })
  .map(({ articles, tags, texts }) => {
    const seen = new Set<string>();
    const cleaned = articles.map((a) => {
      const out: Record<string, unknown> = Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined));
      // Help words are reserved on any article; live codes are unique ignoring case.
      if (a.code && ["h", "help", "?", "帮助", "幫助"].includes(a.code.toLowerCase())) delete out.code;
      else if (a.code && !a.deleted) {
        if (seen.has(a.code.toLowerCase())) delete out.code;
        else seen.add(a.code.toLowerCase());
      }
      return out;
    });
    return { format: "replyd/1", matter: "all", created_at: "2026-11-21T10:00:00.000Z", articles: cleaned, tags, rules: [], texts };
  });

/** Ways to break a document; the result may or may not still be valid. */
export const mutationArb = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), field: fc.constantFrom("title", "url", "id") }),
  fc.record({ kind: fc.constant("type" as const), field: fc.constantFrom("title", "url", "keywords", "deleted", "code", "tag"), value: fc.oneof(fc.integer(), fc.constant(null), fc.constant([]), fc.constant({})) }),
  fc.record({ kind: fc.constant("url" as const), value: fc.constantFrom("ftp://x", "javascript:alert(1)", "/relative", "http://", "") }),
  fc.record({ kind: fc.constant("duplicate" as const) }),
  fc.record({ kind: fc.constant("unknown" as const), field: fc.string({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("long" as const), field: fc.constantFrom("title", "description"), n: fc.integer({ min: 65, max: 600 }) }),
);

type Mutation = typeof mutationArb extends fc.Arbitrary<infer T> ? T : never;

export function mutate(doc: { articles: Record<string, unknown>[] }, m: Mutation, index: number): void {
  const arts = doc.articles;
  if (!arts.length) {
    doc.articles = [{ id: "x", title: "" }];
    return;
  }
  const a = arts[index % arts.length] as Record<string, unknown>;
  switch (m.kind) {
    case "drop":
      delete a[m.field];
      break;
    case "type":
      a[m.field] = m.value;
      break;
    case "url":
      a.url = m.value;
      break;
    case "duplicate":
      arts.push({ ...a });
      break;
    case "unknown":
      a[`x_${m.field}`] = 1;
      break;
    case "long":
      a[m.field] = "x".repeat(m.n);
      break;
  }
}

const tagName = fc.constantFrom("p", "P", "div", "span", "b", "a", "li", "ul", "pre", "br", "img", "hr", "td", "tr", "h2", "script", "style", "svg", "title", "nav", "footer", "header", "main", "article");
/** Attributes that hide an element, that look as if they might, and that do not. */
const hiding = fc.constantFrom(
  " hidden", ' HIDDEN=""', ' aria-hidden="true"', " aria-hidden=TRUE", ' aria-hidden="false"', ' style="display:none"', ' style="DISPLAY : None !important"',
  " style='visibility:hidden'", ' style="display&#58;none"', ' style="color:red"', ' style="display:none;display:block"', ' style="/*x*/display:/**/none"', "", "", "",
);
const attribute = fc.constantFrom(' class="x"', ' title="a>b"', " href='it\"s'", " data-x=1", ' title="<p>"', "");
const openTag = fc.tuple(tagName, hiding, attribute, fc.constantFrom(">", "/>", " >")).map(([n, h, a, e]) => `<${n}${h}${a}${e}`);
const closeTag = tagName.map((n) => `</${n}>`);
/** References, whole or cut, some decoding into "<" and a letter, or into another reference. */
const reference = fc.constantFrom(
  "&lt;", "&gt;", "&amp;", "&#60;", "&#x3C;", "&#x3c;", "&#115;", "&#x73;", "&amp;lt;", "&amp;amp;", "&lt;&#115;cript&gt;", "&LT;", "&nbsp;", "&shy;",
  "&#10;", "&#13;", "&#0;", "&eacute;", "&", "&#", "&lt", "&#x;", "&colon;",
);
const loose = fc.constantFrom("<", ">", "< ", "<3", "<!--", "-->", "<!", "<?", "</", '"', "'", "=", "\n", "\r\n", "\r", "\t", "  ", " ", "\u00a0", "\u3000", "退款", "<!-- c -->", "<!DOCTYPE html>");
const word = fc.string({ unit: fc.constantFrom(..."abz <>&;#/!?=\"'\n"), maxLength: 8 });

/** Bodies as HTML editors write them and as they should not: tags, hidden elements, references, nesting left open or closed twice, stray "<" and "&". */
export const htmlArb = fc.array(fc.oneof(openTag, closeTag, reference, loose, word), { maxLength: 40 }).map((parts) => parts.join(""));
