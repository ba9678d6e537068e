import { describe, expect, test } from "bun:test";
// @ts-expect-error: node-webot's wechat-crypto ships no types
import WXBizMsgCrypt from "wechat-crypto";
import { WxCrypto, WxError, wxSignature } from "../../src/wechat/door/crypto.ts";
import { createCipheriv } from "node:crypto";
import { CODE } from "../../src/base/errors.ts";

const KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
const APPID = "wxb11529c136998cb6";

describe("safe-mode crypto", () => {
  test("known answer: 我是中文abcd123 with random prefix aaaabbbbccccdddd", () => {
    const c = new WxCrypto(KEY, APPID);
    const out = c.encrypt("我是中文abcd123", Buffer.from("aaaabbbbccccdddd"));
    expect(out).toBe("jn1L23DB+6ELqJ+6bruv21Y6MD7KeIfP82D6gU39rmkgczbWwt5+3bnyg5K55bgVtVzd832WzZGMhkP72vVOfg==");
    expect(c.decrypt(out)).toBe("我是中文abcd123");
  });

  test("cross-check with node-webot's wechat-crypto, both directions", () => {
    const peer = new WXBizMsgCrypt("token123", KEY, APPID);
    const ours = new WxCrypto(KEY, APPID);
    for (const msg of ["hello", "<xml><Content><![CDATA[你好]]></Content></xml>", "x".repeat(1000), ""]) {
      expect(ours.decrypt(peer.encrypt(msg))).toBe(msg);
      expect(peer.decrypt(ours.encrypt(msg))).toEqual({ message: msg, id: APPID });
    }
    expect(wxSignature("token123", "1409659813", "1372623149", "abc")).toBe(peer.getSignature("1409659813", "1372623149", "abc"));
  });

  test("a message for another appid is refused with the same code and status as bad padding", () => {
    const other = new WxCrypto(KEY, "wx0000000000000000");
    expect(() => new WxCrypto(KEY, APPID).decrypt(other.encrypt("hi"))).toThrow(expect.objectContaining({ code: CODE.bad_encryption, status: 400 }));
  });

  test("padding is checked: a pad byte outside 1–32 or inconsistent padding is refused", () => {
    const key = Buffer.from(KEY + "=", "base64");
    const raw = (plain: Buffer) => {
      const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16)).setAutoPadding(false);
      return Buffer.concat([cipher.update(plain), cipher.final()]).toString("base64");
    };
    const body = Buffer.concat([Buffer.alloc(16, 97), Buffer.from([0, 0, 0, 2]), Buffer.from("hi"), Buffer.from(APPID)]);
    const fill = (pad: number, value: number) => Buffer.concat([body, Buffer.alloc(pad, value)]);
    const n = 64 - body.length;
    const c = new WxCrypto(KEY, APPID);
    expect(c.decrypt(raw(fill(n, n)))).toBe("hi");
    expect(() => c.decrypt(raw(fill(n, 0)))).toThrow(WxError);
    expect(() => c.decrypt(raw(fill(n, 33)))).toThrow(WxError);
    const mixed = fill(n, n);
    mixed[mixed.length - 2] = 1;
    expect(() => c.decrypt(raw(mixed))).toThrow(WxError);
  });

  test("garbage and wrong lengths are refused, never thrown as anything else", () => {
    const c = new WxCrypto(KEY, APPID);
    for (const bad of ["", "!!!", "AAAA", Buffer.alloc(31).toString("base64"), Buffer.alloc(32).toString("base64")])
      expect(() => c.decrypt(bad)).toThrow(WxError);
  });

  test("the EncodingAESKey must be 43 characters", () => {
    expect(() => new WxCrypto("short", APPID)).toThrow();
  });
});
