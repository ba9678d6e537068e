/**
 * HTML read once, left to right, into the text a reader sees (article/body-text.ts says what is kept). It
 * can stop between any two tags and go on later from where it was (step()), so that a caller on
 * the event loop reduces a body a slice at a time; run to its end at once, it is htmlToText().
 *
 * Open elements are kept on a stack, as a browser keeps them, for two things: whether the text is
 * inside a hidden element (article/html-hidden.ts), to the end of that element, and whether it is inside
 * `<pre>`. An end tag closes the innermost open element of its name and those opened inside it,
 * and is ignored when none is open; a start tag closes what it cannot sit in (article/html-elements.ts).
 * Every tag is pushed and popped at most once, and an element's open count is kept by name, so the
 * work stays linear whatever the nesting (a million unclosed `<div hidden>` included).
 */
import { decodeEntities } from "./html-entities.ts";
import { CLOSES, LINE, PARAGRAPH, RAW, VOID } from "./html-elements.ts";
import { hidesElement } from "./html-hidden.ts";
import { isTagChar, TidyText } from "./tidy-text.ts";

export { TAG_START } from "./tidy-text.ts";

const isNameChar = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;

/** Tags read between two looks at the clock. */
const TAGS_PER_LOOK = 64;

const rawEnds = new Map<string, RegExp>();
const rawEnd = (name: string): RegExp => {
  let re = rawEnds.get(name);
  if (!re) rawEnds.set(name, (re = new RegExp(`</${name}\\s*>`, "gi")));
  return re;
};

/**
 * Where the tag starting at `lt` ends (just past its `>`), with quoted attribute values skipped;
 * -1 when it never does.
 */
function tagEnd(html: string, lt: number): number {
  for (let i = lt + 1; i < html.length; i++) {
    const c = html[i];
    if (c === ">") return i + 1;
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    }
  }
  return -1;
}

/**
 * A saved page's frame, not its article: outside the page's `<main>` or `<article>`, its navigation,
 * header and footer. "Home What's On Your Visit…" and "© 2026 … registered charity no." had reached
 * followers from a theatre's saved page (a walkthrough). Only of a page that marks its content so
 * (framed()): a CMS's fragment or a page without `<main>` keeps every header and footer — a section's
 * heading, an article's footer with its phone number, an unclosed header were text a review found
 * dropped — and a frame that would leave nothing is kept (htmlToText, bodyTextSliced).
 */
const pageFrame = (name: string, open: ReadonlyMap<string, number>): boolean => (name === "nav" || name === "footer" || name === "header") && !open.get("article") && !open.get("main");

/** A whole page marking its content (`<main>`, `<article>`): the frame around it may go. */
export const framed = (html: string): boolean => /<(?:main|article)[\s>]/i.test(html) && /<(?:body|html)[\s>]/i.test(html);

export class HtmlReduction {
  private readonly out = new TidyText();
  /** Where reading goes on; the text read and not yet written; what was found after it. */
  private at = 0;
  private textFrom = 0;
  private textTo = 0;
  private found: { lt: number; end: number; isTag: boolean } | null = null;
  /** Past a tag that never ends every "<" is text: no later one can end either. */
  private tagsEnd: number;
  private readonly open: string[] = [];
  private readonly openCount = new Map<string, number>();
  /** The stack depth of the hidden element the text is in; -1: none. */
  private hiddenAt = -1;
  private result: string | null = null;

  private readonly tagsPerLook: number;
  private readonly chunk: number;

  /** Whether a page's frame is dropped (pageFrame): given, else read off the page (framed). */
  readonly frame: boolean;

  /** `tagsPerLook` and `chunk` (characters of text written at once) are for tests that stop it everywhere. */
  constructor(
    private readonly html: string,
    opts: { tagsPerLook?: number; chunk?: number; frame?: boolean } = {},
  ) {
    this.frame = opts.frame ?? framed(html);
    this.tagsEnd = html.length;
    this.tagsPerLook = Math.max(1, opts.tagsPerLook ?? TAGS_PER_LOOK);
    // A chunk holds a whole character reference wherever it starts.
    this.chunk = Math.max(2 * LONGEST_REFERENCE, opts.chunk ?? CHUNK);
  }

  /** The text, once step() has answered true. */
  text(): string {
    if (this.result === null) throw new Error("the reduction has not ended");
    return this.result;
  }

  /** Reads on until the input ends (true) or, asked every few tags or chunks of text, `stop` says to (false). */
  step(stop: () => boolean): boolean {
    if (this.result !== null) return true;
    const html = this.html;
    for (let looked = 0; ; looked++) {
      // Never before the first piece of work: each step makes progress.
      if (looked > 0 && looked % this.tagsPerLook === 0 && stop()) return false;
      // First the text before what was found, a chunk at a time; then what was found.
      if (this.textFrom < this.textTo) {
        if (this.writeChunk() && stop()) return false;
        continue;
      }
      if (this.found) {
        const { lt, end, isTag } = this.found;
        this.found = null;
        this.at = this.textFrom = end;
        if (isTag) this.tag(lt, end);
        continue;
      }
      if (this.at >= html.length) {
        this.result = this.out.text();
        return true;
      }
      const lt = html.indexOf("<", this.at);
      if (lt < 0 || lt >= this.tagsEnd) {
        this.textTo = this.at = html.length;
        continue;
      }
      const next = html.charCodeAt(lt + 1);
      // A "<" that starts nothing is a word like any other: it stays in the text being read.
      if (!isTagChar(next)) {
        this.at = lt + 1;
        continue;
      }
      if (html.startsWith("<!--", lt)) {
        const close = html.indexOf("-->", lt + 4);
        this.textTo = lt;
        this.found = { lt, end: close < 0 ? html.length : close + 3, isTag: false };
        continue;
      }
      const declaration = next === 0x21 || next === 0x3f;
      const end = declaration ? html.indexOf(">", lt) + 1 : tagEnd(html, lt);
      if (end <= 0) {
        this.tagsEnd = lt;
        this.at = lt;
        continue;
      }
      this.textTo = lt;
      this.found = { lt, end, isTag: !declaration };
    }
  }

  private tag(lt: number, end: number): void {
    const html = this.html;
    const closing = html.charCodeAt(lt + 1) === 0x2f;
    const nameStart = lt + (closing ? 2 : 1);
    let n = nameStart;
    while (n < end && isNameChar(html.charCodeAt(n))) n++;
    const name = html.slice(nameStart, n).toLowerCase();
    if (!name) return;
    if (closing) return this.endTag(name);
    if (RAW.has(name)) {
      // Its content, to its own end tag (or the end), is not text.
      const close = rawEnd(name);
      close.lastIndex = end;
      this.at = this.textFrom = close.exec(html) ? close.lastIndex : html.length;
      return;
    }
    const closes = CLOSES.get(name);
    if (closes) while (this.open.length && closes.has(this.open[this.open.length - 1] as string)) this.pop();
    const hides = hidesElement(html, n, end - 1) || (this.frame && pageFrame(name, this.openCount));
    if (VOID.has(name)) {
      if (this.hiddenAt < 0 && !hides) this.breaks(name);
      return;
    }
    this.open.push(name);
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    if (this.hiddenAt < 0 && hides) this.hiddenAt = this.open.length - 1;
    if (this.hiddenAt < 0) this.breaks(name);
  }

  private endTag(name: string): void {
    // "</br>" is read as "<br>", as browsers do.
    if (name === "br") {
      if (this.hiddenAt < 0) this.breaks(name);
      return;
    }
    const hiddenAt = this.hiddenAt;
    let closedAt = -1;
    if (this.openCount.get(name)) {
      while (this.pop() !== name);
      closedAt = this.open.length;
    }
    // The end of a visible element breaks the line; that of the hidden one, or of one inside it, does not.
    if (hiddenAt < 0 || (closedAt >= 0 && closedAt < hiddenAt)) this.breaks(name);
  }

  private pop(): string {
    const name = this.open.pop() as string;
    this.openCount.set(name, (this.openCount.get(name) as number) - 1);
    if (this.open.length <= this.hiddenAt) this.hiddenAt = -1;
    return name;
  }

  private breaks(name: string): void {
    if (PARAGRAPH.has(name)) this.out.owe(2);
    else if (name === "br" || LINE.has(name)) this.out.owe(1);
  }

  /**
   * Writes the next chunk of the text being read, as a reader sees it (nothing when it is hidden);
   * answers whether it was a whole chunk, worth a look at the clock.
   */
  private writeChunk(): boolean {
    const from = this.textFrom;
    let end = Math.min(this.textTo, from + this.chunk);
    // Never between the two ends of a character reference.
    if (end < this.textTo) {
      const amp = this.html.lastIndexOf("&", end - 1);
      if (amp > from && amp > end - LONGEST_REFERENCE) end = amp;
    }
    this.textFrom = end;
    if (this.hiddenAt < 0) this.out.words(decodeEntities(this.html.slice(from, end)), !!this.openCount.get("pre"));
    return end - from >= this.chunk / 2;
  }
}

/** Characters of text decoded and written at once: no step spends more than this on text. */
const CHUNK = 16 * 1024;
/** `&#x10FFFF;`, `&#1114111;`, or a name of 31 letters (html-entities.ts). */
const LONGEST_REFERENCE = 33;

/** HTML as the text a reader sees, at once. */
export function htmlToText(html: string, frame = framed(html)): string {
  const reduction = new HtmlReduction(html, { frame });
  reduction.step(() => false);
  // Its frame all there is: the frame is the text.
  return frame && reduction.text() === "" ? htmlToText(html, false) : reduction.text();
}
