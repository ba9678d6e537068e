import { describe, expect, test } from "bun:test";
import { cdata, parseXml, XmlError } from "../../src/wechat/xml.ts";

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
    ["text and elements mixed", "<xml>text<A>1</A></xml>"],
    ["too many elements", "<xml>" + "<A>1</A>".repeat(300) + "</xml>"],
  ])("refuses %s", (_name, text) => {
    expect(() => parseXml(text)).toThrow(XmlError);
  });
  test("a failed read leaves the reader ready for the next document", () => {
    expect(() => parseXml("<xml><A>")).toThrow(XmlError);
    expect(parseXml("<xml><A>ok</A><B/></xml>")).toEqual({ A: "ok", B: "" } as never);
  });
});
