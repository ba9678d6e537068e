/**
 * What a model writes costs the event loop little, whatever it is: every step of the check is
 * linear in its input, and the check reads only what could ever be shown (RAW_CHARS). Each
 * shape here made a step of the old check take seconds at the read limit (its cost grew with the
 * square of the length); each step must now take 256 KiB in a fraction of a second, measured with
 * room for a loaded machine — a square cost would take minutes.
 */
import { expect, test } from "bun:test";
import { MAX_ANSWER_BYTES } from "../../src/llm/client.ts";
import { checkOutput, holdsRun } from "../../src/llm/output/check.ts";
import { figures } from "../../src/llm/output/figures.ts";
import { groundsOf, ungrounded } from "../../src/llm/output/grounding.ts";
import { findLinks } from "../../src/llm/output/links.ts";
import { dropEmptyBrackets, neutralise, plainText, tidy } from "../../src/llm/output/markup.ts";
import { fold, RAW_CHARS, visible } from "../../src/llm/output/normalise.ts";
import { mask } from "../../src/llm/output/secrets.ts";
import type { Source } from "../../src/llm/prompt.ts";
import { fill, randomAnswers, SHAPES } from "./shapes.ts";

const KEY = "sk-live-abcdefghijklmnop0123";
const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货。"] }];
const RULES = "You answer a follower's question on behalf of an official account. ".repeat(10);
const check = (s: string) => checkOutput(s, SOURCES, { secrets: [KEY], instructions: RULES, canary: "c0ffee123456", question: "还能退吗", maxBytes: 1848 });

const STEPS: [string, (s: string) => unknown][] = [
  ["visible", visible],
  ["fold", fold],
  ["plainText", plainText],
  ["neutralise", neutralise],
  ["tidy", tidy],
  ["dropEmptyBrackets", dropEmptyBrackets],
  ["findLinks", findLinks],
  ["figures", figures],
  ["ungrounded", (s) => ungrounded(s, groundsOf(["本店支持七天无理由退货。"]))],
  ["mask", (s) => mask(s, [KEY])],
  ["holdsRun", (s) => holdsRun(s, RULES, 24)],
];

const ms = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

/** Each step on `s` within `limitMs` (the first run warms the code up). */
function within(s: string, limitMs: number, what: string): void {
  for (const [name, step] of STEPS) {
    step(s);
    const took = ms(() => step(s));
    if (took > limitMs) throw new Error(`${name} took ${took.toFixed(0)} ms on ${what}`);
  }
}

for (const shape of SHAPES)
  test(`every step takes ${MAX_ANSWER_BYTES / 1024} KiB of ${JSON.stringify(shape)} within 400 ms (a square cost takes minutes)`, () => {
    within(fill(shape, MAX_ANSWER_BYTES), 400, `256 KiB of ${JSON.stringify(shape)}`);
  });

test("every step takes random mixes of marks at the read limit within 400 ms", () => {
  for (const s of randomAnswers(8, MAX_ANSWER_BYTES)) within(s, 400, "a random answer");
});

test("the check reads only what could be shown: an answer at the read limit costs what one of RAW_CHARS does", () => {
  for (const shape of SHAPES) {
    const s = fill(shape, MAX_ANSWER_BYTES);
    check(s);
    const took = ms(() => check(s));
    if (took > 100) throw new Error(`the check took ${took.toFixed(0)} ms on 256 KiB of ${JSON.stringify(shape)}`);
  }
  // A piece of the key past RAW_CHARS is past anything shown: not read.
  expect(check(`${fill("好", RAW_CHARS)}${KEY}`)).not.toMatchObject({ reason: "secret" });
  expect(check(`${fill("好", RAW_CHARS - 40)}${KEY}`)).toMatchObject({ reason: "secret" });
});
