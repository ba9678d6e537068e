import { expect, test } from "bun:test";
import fc from "fast-check";
import { queryOf } from "../../src/wechat/door/query.ts";

const standard = (url: string) => {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(url).searchParams) if (!(k in out)) out[k] = v;
  return out;
};

test("the platform's plain query is read as URLSearchParams reads it", () => {
  const url = "http://h/wechat?signature=abc&timestamp=1763719200&nonce=n1&openid=o_1&encrypt_type=aes&msg_signature=def";
  expect({ ...queryOf(url) }).toEqual(standard(url));
});

test("edges: no query, empty pairs, keys without =, repeated keys (first wins), a fragment", () => {
  expect({ ...queryOf("http://h/wechat") }).toEqual({});
  expect({ ...queryOf("http://h/wechat?") }).toEqual({});
  expect({ ...queryOf("http://h/w?&&a=1&&b&c=&a=2#frag=x") }).toEqual({ a: "1", b: "", c: "" });
  expect({ ...queryOf("http://h/w?a==b") }).toEqual({ a: "=b" });
  expect(queryOf("http://h/w?constructor=1&__proto__=2").__proto__).toBe("2");
});

test("any query agrees with URLSearchParams (escapes, plus signs, unicode, stray %)", () => {
  const part = fc.string({ unit: fc.constantFrom("a", "b", "=", "&", "%", "+", "2", "0", "F", "é", "你", "%41", "%zz", "%E4%BD%A0"), maxLength: 12 });
  fc.assert(
    fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
      const raw = `http://h/wechat?${parts.join("&")}`;
      expect({ ...queryOf(raw) }).toEqual(standard(raw));
      // As a server sees it: the URL parser has percent-encoded what needed it.
      const normalised = new URL(raw).href;
      expect({ ...queryOf(normalised) }).toEqual(standard(normalised));
    }),
    { numRuns: 2000 },
  );
});

test("the platform's names, and names that only share a prefix or length with them, are read alike", () => {
  const url = "http://h/wechat?nonce=1&nonceX=2&nonc=3&noncf=4&timestamp=5&timestamq=6&openid=7&echostr=8&encrypt_type=aes&msg_signature=9&signaturE=10";
  expect({ ...queryOf(url) }).toEqual(standard(url));
});
