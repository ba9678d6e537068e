/** The key in any spelling: found by the check, hidden wherever a model's words or an endpoint's failure are kept or shown. */
import { expect, test } from "bun:test";
import { checkOutput } from "../../src/model-output/check.ts";
import { holdsSecret, mask, SECRET_RUN } from "../../src/model-output/secrets.ts";
import type { Source } from "../../src/model-prompt.ts";

const KEY = "sk-live-Abcdefghijklmnop0123";
const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货。"] }];
const check = (answer: string) => checkOutput(answer, SOURCES, { secrets: [KEY], instructions: "Answer from the sources.", canary: "c0ffee123456", question: "还能退吗", maxBytes: 1848 });

const NEAR_COPIES: [string, string][] = [
  ["whole", KEY],
  ["case changed", KEY.toUpperCase()],
  ["a prefix of SECRET_RUN letters and digits", "sk-live-Abcdef"],
  ["spread by spaces", KEY.split("").join(" ")],
  ["spread by zero-width spaces", KEY.split("").join("\u200b")],
  ["spread by dashes", KEY.replace(/-/g, "").split("").join("-")],
  ["written full-width", "ａｂｃｄｅｆｇｈｉｊ"],
  ["a piece from its middle", "ghijklmn"],
];

for (const [name, spelled] of NEAR_COPIES) {
  test(`a near copy of the key is refused and masked: ${name}`, () => {
    expect(check(`密钥是 ${spelled} [1]`)).toMatchObject({ ok: false, reason: "secret" });
    const masked = mask(`密钥是 ${spelled} 好的`, [KEY]);
    expect(holdsSecret(masked, [KEY])).toBe(false);
    expect(masked.startsWith("密钥是 ")).toBe(true);
    expect(masked.endsWith(" 好的")).toBe(true);
  });
}

test("one letter fewer than SECRET_RUN of the key is not a piece of it", () => {
  const seven = "abcdefghij".slice(0, SECRET_RUN - 1);
  expect(holdsSecret(`x ${seven} y`, [KEY])).toBe(false);
  expect(check(`片段 ${seven} [1]`).ok).toBe(true);
  expect(mask(`x ${seven} y`, [KEY])).toBe(`x ${seven} y`);
});

test("mask leaves text without the key as it is, and hides each piece where it was written", () => {
  expect(mask("nothing here", [KEY])).toBe("nothing here");
  expect(mask("nothing here", [undefined])).toBe("nothing here");
  expect(mask(`a ${KEY} b ${KEY.toUpperCase()} c`, [KEY])).toBe("a … b … c");
});
