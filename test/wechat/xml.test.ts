import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cdata, MAX_DEPTH, MAX_ELEMENTS, parseXml, XmlError } from "../../src/wechat/door/xml.ts";

describe("strict XML reader", () => {
  test("reads a platform message with CDATA and plain text", () => {
    const node = parseXml(`<?xml version="1.0"?>
      <xml><ToUserName><![CDATA[gh_1]]></ToUserName><FromUserName><![CDATA[o_1]]></FromUserName>
      <CreateTime>1348831860</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[a < b & 你好]]></Content>
      <MsgId>1234567890123456</MsgId><!-- a comment --></xml>`);
    expect(node).toMatchObject({ ToUserName: "gh_1", CreateTime: "1348831860", Content: "a < b & 你好", MsgId: "1234567890123456" });
  });
  test("predefined and numeric entities in text are decoded", () => {
    expect(parseXml("<xml><A>&lt;&amp;&#x4F60;&#22909;</A></xml>").A).toBe("<&你好");
  });
  test("nested menu-event elements are read", () => {
    expect(parseXml("<xml><ScanCodeInfo><ScanType>qrcode</ScanType></ScanCodeInfo></xml>").ScanCodeInfo).toEqual({ ScanType: "qrcode" });
  });
  test.each([
    ["DOCTYPE", '<!DOCTYPE xml [<!ENTITY x "y">]><xml><A>&x;</A></xml>'],
    ["external entity", '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><xml><A>&xxe;</A></xml>'],
    ["undeclared entity", "<xml><A>&bogus;</A></xml>"],
    ["an object's member as an entity (constructor)", "<xml><A>&constructor;</A></xml>"],
    ["an object's member as an entity (toString)", "<xml><A>&toString;</A></xml>"],
    ["billion laughs", '<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><xml><A>&b;</A></xml>'],
    ["wrong root", "<root><A>1</A></root>"],
    ["unclosed", "<xml><A>1</A>"],
    ["mismatched", "<xml><A>1</B></xml>"],
    ["trailing content", "<xml></xml><xml></xml>"],
    ["processing instruction inside", "<xml><?php x ?></xml>"],
    ["deep nesting", "<xml>" + "<a>".repeat(50) + "</a>".repeat(50) + "</xml>"],
    ["bare ampersand", "<xml><A>a & b</A></xml>"],
    ["NUL reference", "<xml><A>&#0;</A></xml>"],
    ["empty", ""],
  ])("refuses %s", (_name, text) => {
    expect(() => parseXml(text)).toThrow(XmlError);
  });
  test("cdata() keeps ]]> inside text intact", () => {
    const s = "a]]>b";
    expect(parseXml(`<xml><A>${cdata(s)}</A></xml>`).A).toBe(s);
  });
});

describe("strict XML reader, edges", () => {
  test("markup-looking text inside CDATA is the follower's text, not markup", () => {
    expect(parseXml("<xml><Content><![CDATA[<!DOCTYPE x [<!ENTITY a 'b'>]> <?php ?>]]></Content></xml>").Content).toBe("<!DOCTYPE x [<!ENTITY a 'b'>]> <?php ?>");
  });
  test("an element named __proto__ or constructor is an ordinary field", () => {
    const node = parseXml("<xml><__proto__><A>1</A></__proto__><constructor>c</constructor><MsgType>text</MsgType></xml>");
    expect(Object.getPrototypeOf(node)).toBe(null);
    expect(node.__proto__).toEqual({ A: "1" } as never);
    expect(node.constructor).toBe("c" as never);
    expect((node as Record<string, unknown>).A).toBeUndefined();
  });
  test.each([
    ["a close tag that only starts with the name", "<xml><A>1</AB></xml>"],
    ["a close tag longer than the name", "<xml><AB>1</A></xml>"],
    ["a DOCTYPE after a comment", "<!-- c --><!DOCTYPE x><xml></xml>"],
    ["a declaration between elements", "<xml><A>1</A><!ENTITY x 'y'></xml>"],
    ["an unterminated CDATA", "<xml><A><![CDATA[x</A></xml>"],
    ["an unterminated comment", "<xml><!-- x</xml>"],
    ["an unterminated close tag", "<xml><A>1</A"],
    ["too many elements (one past the bound)", "<xml>" + "<A>1</A>".repeat(MAX_ELEMENTS) + "</xml>"],
    ["a reference to a control character", "<xml><A>&#x1b;]0;title&#x07;</A></xml>"],
    ["a raw control character in CDATA", "<xml><A><![CDATA[\u001b[2J]]></A></xml>"],
    ["U+FFFF", "<xml><A>\uffff</A></xml>"],
    ["nesting one past the bound", "<xml>" + "<a>".repeat(MAX_DEPTH) + "x" + "</a>".repeat(MAX_DEPTH) + "</xml>"],
  ])("refuses %s", (_name, text) => {
    expect(() => parseXml(text)).toThrow(XmlError);
  });
  test("the bounds themselves are accepted: MAX_ELEMENTS elements, nesting MAX_DEPTH deep", () => {
    expect(Object.keys(parseXml("<xml>" + "<A>1</A>".repeat(MAX_ELEMENTS - 1) + "</xml>"))).toEqual(["A"]);
    expect(() => parseXml("<xml>" + "<a>".repeat(MAX_DEPTH - 1) + "x" + "</a>".repeat(MAX_DEPTH - 1) + "</xml>")).not.toThrow();
  });
  test("tab, LF and CR are text; text between elements is dropped, not refused", () => {
    expect(parseXml("<xml>\tstray\r\n<A>a\tb\r\nc</A> more </xml>")).toEqual({ A: "a\tb\r\nc" } as never);
  });
  test("repeated elements keep the first (a PicList's items)", () => {
    expect(parseXml("<xml><L><item><M>1</M></item><item><M>2</M></item></L></xml>").L).toEqual({ item: { M: "1" } } as never);
  });
  test("a failed read leaves the reader ready for the next document", () => {
    expect(() => parseXml("<xml><A>")).toThrow(XmlError);
    expect(parseXml("<xml><A>ok</A><B/></xml>")).toEqual({ A: "ok", B: "" } as never);
  });
});

describe("strict XML reader, generated documents", () => {
  // Names the reader knows (and returns as constants), names that only share a prefix with one, and others.
  const name = fc.constantFrom("MsgType", "Msg", "MsgTypeX", "Content", "ContentX", "Conten", "Event", "EventKey", "xml", "A", "item", "MsgId", "MsgID");
  const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "你", "]", ">", "<", "&", "'", '"'), maxLength: 8 });
  const escape = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
  // One piece of an element's content: its text value and how it is written.
  const piece = fc.oneof(
    text.filter((s) => !s.includes("]]>")).map((s) => ({ value: s, xml: `<![CDATA[${s}]]>` })),
    text.filter((s) => s.length > 0).map((s) => ({ value: s, xml: escape(s) })),
    text.map((s) => ({ value: s, xml: [...s].map((c) => ({ a: "&#97;", b: "&#x62;", "你": "&#x4F60;" })[c] ?? escape(c)).join("") })),
    fc.constant({ value: "", xml: "<!-- c -->" }),
  );
  type Element = { name: string; pieces: { value: string; xml: string }[]; children: Element[]; closeSpace: boolean };
  const leaf: fc.Arbitrary<Element> = fc.record({ name, pieces: fc.array(piece, { maxLength: 3 }), children: fc.constant([]), closeSpace: fc.boolean() });
  const element: fc.Arbitrary<Element> = fc.oneof(
    leaf,
    fc.record({ name, pieces: fc.constant([] as Element["pieces"]), children: fc.array(leaf, { minLength: 1, maxLength: 3 }), closeSpace: fc.boolean() }),
  );
  const write = (e: Element): string => `<${e.name}>${e.pieces.map((p) => p.xml).join("")}${e.children.map(write).join("")}</${e.name}${e.closeSpace ? " " : ""}>`;
  const model = (e: Element): unknown => {
    if (!e.children.length) return e.pieces.map((p) => p.value).join("");
    const out: Record<string, unknown> = {};
    for (const c of e.children) if (!(c.name in out)) out[c.name] = model(c);
    return out;
  };

  test("every field reads back as written, whatever mix of CDATA, text, references and comments holds it", () => {
    fc.assert(
      fc.property(fc.array(element, { minLength: 1, maxLength: 6 }), (children) => {
        const doc = `<xml>${children.map(write).join("")}</xml>`;
        expect({ ...parseXml(doc) }).toEqual(model({ name: "xml", pieces: [], children, closeSpace: false }) as never);
      }),
      { numRuns: 500 },
    );
  });

  test("a close tag that is a known name's prefix or extension does not close it", () => {
    for (const doc of ["<xml><MsgType>text</MsgTypeX></xml>", "<xml><MsgType>text</Msg></xml>", "<xml><MsgTypeX><![CDATA[t]]></MsgType></xml>"])
      expect(() => parseXml(doc)).toThrow(XmlError);
  });
});
