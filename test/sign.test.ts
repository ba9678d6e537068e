import { describe, expect, test } from "bun:test";
import vectors from "./vectors/signing.json";
import { fixedClock } from "../src/base/clock.ts";
import { authenticate } from "../src/server/auth.ts";
import { DoorBudget } from "../src/server/form-bounds.ts";
import { FailureLimiter } from "../src/server/limiter.ts";
import { NonceCache } from "../src/server/nonces.ts";
import { canonicalQuery, canonicalString, computeSign, fileParamValue, formatTs, parseTs, rfc3986, signRequest, timingSafeEqual, timingSafeEqualBytes, type Param } from "../src/sign.ts";
import { KeyRing } from "../src/store/keys.ts";
import { CODE } from "../src/base/errors.ts";

interface Vector {
  name: string;
  method: string;
  path: string;
  secret: string;
  params: [string, string][];
  files: Record<string, string>;
  canonical: string;
  sign: string;
}
const all = vectors as Vector[];

describe("signing vectors (test/vectors/signing.json, made by an independent Python implementation)", () => {
  test("there are the DESIGN examples plus at least 12 more", () => {
    expect(all.length).toBeGreaterThanOrEqual(14);
    expect(all[0]?.sign).toBe("263e9f383bb2d9e9f8d3ffdf5ede2260");
    expect(all[1]?.sign).toBe("aa6aa1a2ad918097b8d3eda2ca0b4950");
  });

  for (const v of all) {
    test(`signer: ${v.name}`, () => {
      const params: Param[] = [...v.params, ...Object.entries(v.files).map(([n, c]) => [n, fileParamValue(new TextEncoder().encode(c))] as Param)];
      const out = signRequest({ method: v.method, path: v.path, params, secret: v.secret });
      expect(out.canonical).toBe(v.canonical);
      expect(out.sign).toBe(v.sign);
    });

    test(`verifier: ${v.name}`, async () => {
      const ts = v.params.find(([k]) => k === "ts")?.[1] as string;
      const clock = fixedClock(parseTs(ts));
      const params: Param[] = [...v.params, ["sign", v.sign]];
      const url = `http://localhost${v.path}`;
      let request: Request;
      if (v.method === "GET" || v.method === "DELETE") request = new Request(`${url}?${canonicalQuery(params)}`, { method: v.method });
      else if (!Object.keys(v.files).length)
        // urlencoded, as the client sends fields: FormData's multipart encoding would turn \n into \r\n.
        request = new Request(url, { method: v.method, body: canonicalQuery(params), headers: { "content-type": "application/x-www-form-urlencoded" } });
      else {
        const form = new FormData();
        for (const [k, val] of params) form.append(k, val);
        for (const [n, c] of Object.entries(v.files)) form.append(n, new File([c], "f.json"));
        request = new Request(url, { method: v.method, body: form });
      }
      const opts = {
        keys: new KeyRing(null, [{ appkey: "demo", secret: v.secret, scope: "admin" as const }]),
        clock,
        windowMs: 5000,
        nonces: new NonceCache(),
        limiter: new FailureLimiter({ maxFailures: 100, periodMs: 60_000, lockMs: 60_000, maxEntries: 1000 }),
        budget: new DoorBudget(1 << 24),
        maxUpload: 1 << 20,
        notBefore: () => 0,
      };
      const signed = await authenticate(request, clock.now(), "test", opts);
      expect(signed.key.appkey).toBe("demo");
      // The same request with the last hex digit of sign changed must not pass.
      const bad = v.sign.slice(0, -1) + (v.sign.endsWith("0") ? "1" : "0");
      const badParams: Param[] = [...v.params, ["sign", bad]];
      const badReq =
        v.method === "GET" || v.method === "DELETE"
          ? new Request(`${url}?${canonicalQuery(badParams)}`, { method: v.method })
          : new Request(url, { method: v.method, body: canonicalQuery(badParams), headers: { "content-type": "application/x-www-form-urlencoded" } });
      await expect(authenticate(badReq, clock.now(), "test", opts)).rejects.toMatchObject({ code: CODE.bad_signature, status: 401 });
    });
  }
});

describe("canonical string", () => {
  test("RFC 3986: unreserved kept, everything else %XX upper-case, UTF-8", () => {
    expect(rfc3986("AZaz09-._~")).toBe("AZaz09-._~");
    expect(rfc3986("!*'() +&=%/")).toBe("%21%2A%27%28%29%20%2B%26%3D%25%2F");
    expect(rfc3986("世")).toBe("%E4%B8%96");
  });
  test("sorted by encoded key, then encoded value", () => {
    expect(canonicalQuery([["b", "2"], ["a", "z"], ["a", "y"], ["A", "x"]])).toBe("A=x&a=y&a=z&b=2");
  });
  test("a value holding &k=v cannot be confused with two parameters", () => {
    const one = canonicalString("GET", "/api/cli", [["a", "b&c=d"]]);
    const two = canonicalString("GET", "/api/cli", [["a", "b"], ["c", "d"]]);
    expect(one).not.toBe(two);
  });
  test("key/value boundary shift changes the canonical string", () => {
    expect(canonicalString("GET", "/p", [["a", "bc"]])).not.toBe(canonicalString("GET", "/p", [["ab", "c"]]));
  });
  test("method is upper-cased into the string", () => {
    expect(canonicalString("get", "/api/cli", [])).toBe("GET\n/api/cli\n");
  });
  test("sign is lowercase hex md5 of canonical + secret", () => {
    expect(computeSign("x", "y")).toBe(new Bun.CryptoHasher("md5").update("xy").digest("hex"));
    expect(computeSign("x", "y")).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("timestamps", () => {
  test("formatTs writes seconds with three decimals", () => {
    expect(formatTs(1763719200123)).toBe("1763719200.123");
    expect(formatTs(1763719200000)).toBe("1763719200.000");
  });
  test("parseTs reads 0–3 decimals as milliseconds", () => {
    expect(parseTs("1763719200")).toBe(1763719200000);
    expect(parseTs("1763719200.1")).toBe(1763719200100);
    expect(parseTs("1763719200.12")).toBe(1763719200120);
    expect(parseTs("1763719200.123")).toBe(1763719200123);
  });
});

describe("constant-time compare", () => {
  test("equal and unequal strings", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true);
    expect(timingSafeEqual("abc", "abd")).toBe(false);
    expect(timingSafeEqual("abc", "abcd")).toBe(false);
  });

  /** Counts element reads: the compare must read every element whether the first or the last differs. */
  function counted(bytes: number[]): { view: ArrayLike<number>; reads: () => number } {
    let reads = 0;
    const view = new Proxy(bytes, {
      get(target, prop, recv) {
        if (typeof prop === "string" && /^\d+$/.test(prop)) reads++;
        return Reflect.get(target, prop, recv);
      },
    });
    return { view, reads: () => reads };
  }

  test("reads every byte whether the first or the last hex digit differs", () => {
    const good = [..."263e9f383bb2d9e9f8d3ffdf5ede2260"].map((c) => c.charCodeAt(0));
    const firstDiffers = [...good];
    firstDiffers[0] = "3".charCodeAt(0);
    const lastDiffers = [...good];
    lastDiffers[31] = "1".charCodeAt(0);

    const a1 = counted(good), b1 = counted(firstDiffers);
    expect(timingSafeEqualBytes(a1.view, b1.view)).toBe(false);
    const a2 = counted(good), b2 = counted(lastDiffers);
    expect(timingSafeEqualBytes(a2.view, b2.view)).toBe(false);

    expect(a1.reads() + b1.reads()).toBe(64);
    expect(a2.reads() + b2.reads()).toBe(64);
  });

  test("the string compare the verifier uses reads every character either way too", () => {
    const counting = (s: string) => {
      let reads = 0;
      return { src: { length: s.length, charCodeAt: (i: number) => (reads++, s.charCodeAt(i)) }, reads: () => reads };
    };
    const good = "263e9f383bb2d9e9f8d3ffdf5ede2260";
    for (const other of ["363e9f383bb2d9e9f8d3ffdf5ede2260", "263e9f383bb2d9e9f8d3ffdf5ede2261"]) {
      const a = counting(good), b = counting(other);
      expect(timingSafeEqual(a.src, b.src)).toBe(false);
      expect(a.reads() + b.reads()).toBe(64);
    }
  });
});
