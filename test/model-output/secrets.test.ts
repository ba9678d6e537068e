/** The key in any spelling: found by the check, hidden wherever a model's words or an endpoint's failure are kept or shown. */
import { expect, test } from "bun:test";
import { checkOutput } from "../../src/model-output/check.ts";
import { holdsSecret, mask, SECRET_RUN, WITHHELD } from "../../src/model-output/secrets.ts";
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
  ["in mathematical bold", "𝐬𝐤-𝐥𝐢𝐯𝐞-𝐀𝐛𝐜𝐝"],
  ["in circled letters", "ⓢⓚ-ⓛⓘⓥⓔ-Ⓐⓑ"],
];

/** Spellings a mask cannot place: the whole text is withheld. */
const ENCODED: [string, string][] = [
  ["as character references", [..."sk-live-Abcdef"].map((c) => `&#${c.charCodeAt(0)};`).join("")],
  ["as hexadecimal references", [..."sk-live-Abcdef"].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join("")],
  ["as \\u escapes", [..."sk-live-Abcdef"].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
];

for (const [name, spelled] of ENCODED)
  test(`the key written ${name} is refused, and a text holding it is withheld whole`, () => {
    expect(check(`密钥是 ${spelled} [1]`)).toMatchObject({ ok: false, reason: "secret" });
    expect(mask(`output: ${spelled}`, [KEY])).toBe(WITHHELD);
  });

for (const [name, spelled] of NEAR_COPIES) {
  test(`a near copy of the key is refused and masked: ${name}`, () => {
    expect(check(`密钥是 ${spelled} [1]`)).toMatchObject({ ok: false, reason: "secret" });
    const masked = mask(`密钥是 ${spelled} 好的`, [KEY]);
    expect(holdsSecret(masked, [KEY])).toBe(false);
    // Checked by another fold than the mask's own: NFKC of the whole, then its letters and digits.
    expect(masked.normalize("NFKC").toLowerCase().replace(/[^a-z0-9]/g, "")).not.toContain("abcdefgh");
    expect(masked.startsWith("密钥是 ")).toBe(true);
    expect(masked.endsWith(" 好的")).toBe(true);
  });
}

test("one letter fewer than SECRET_RUN of the key is not a piece of it", () => {
  const seven = "abcdefghij".slice(0, SECRET_RUN - 1);
  expect(holdsSecret(`x ${seven} y`, [KEY])).toBe(false);
  expect(check(`xyz ${seven} [1]`)).not.toMatchObject({ reason: "secret" });
  expect(mask(`x ${seven} y`, [KEY])).toBe(`x ${seven} y`);
});

test("mask leaves text without the key as it is, and hides each piece where it was written", () => {
  expect(mask("nothing here", [KEY])).toBe("nothing here");
  expect(mask("nothing here", [undefined])).toBe("nothing here");
  expect(mask(`a ${KEY} b ${KEY.toUpperCase()} c`, [KEY])).toBe("a … b … c");
});
