/**
 * What a model writes costs the event loop little, whatever it is: every step of the check is
 * linear in its input, and the check reads only what could ever be shown (RAW_CHARS). Each shape
 * here made a step of the old check take minutes at the read limit (its cost grew with the square
 * of the length: 60,000 spaces took 6 s, so 256 KiB of them about two minutes). Here every step
 * must finish 256 KiB of each shape within the test's 20 s; the speed targets (400 ms a step, the
 * whole check 100 ms, another follower's wait 50 ms) are measured by bench/model-check.ts — a timed
 * unit test fails on a loaded machine.
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

/** Every step of the check run on `s`: a square cost at the read limit takes minutes, past the test's timeout. */
const everyStep = (s: string) => {
  for (const [, step] of STEPS) step(s);
};
const FINISHES = 20_000;

for (const shape of SHAPES)
  test(`every step finishes ${MAX_ANSWER_BYTES / 1024} KiB of ${JSON.stringify(shape)} (a square cost takes minutes)`, () => everyStep(fill(shape, MAX_ANSWER_BYTES)), FINISHES);

test("every step finishes random mixes of marks at the read limit", () => randomAnswers(8, MAX_ANSWER_BYTES).forEach(everyStep), FINISHES);

test("the check reads only what could be shown: past RAW_CHARS nothing is read", () => {
  // A piece of the key past RAW_CHARS is past anything shown: not read.
  expect(check(`${fill("好", RAW_CHARS)}${KEY}`)).not.toMatchObject({ reason: "secret" });
  expect(check(`${fill("好", RAW_CHARS - 40)}${KEY}`)).toMatchObject({ reason: "secret" });
});
