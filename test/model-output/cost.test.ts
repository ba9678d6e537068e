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
import { RAW_CHARS } from "../../src/llm/output/normalise.ts";
import { fill, randomAnswers, SHAPES } from "./shapes.ts";
import { check, KEY, STEPS } from "./steps.ts";


/** Every step of the check run on `s`: a square cost at the read limit takes minutes, past the test's timeout. */
const everyStep = (s: string) => {
  for (const [, step] of STEPS) step(s);
};
const FINISHES = 20_000;

for (const shape of SHAPES)
  test(`every step finishes ${MAX_ANSWER_BYTES / 1024} KiB of ${JSON.stringify(shape)} (a square cost takes minutes)`, () => everyStep(fill(shape, MAX_ANSWER_BYTES)), FINISHES);

test("every step finishes random mixes of marks at the read limit", () => randomAnswers(8, MAX_ANSWER_BYTES).forEach(everyStep), FINISHES);

test("a key past RAW_CHARS is not found: the check cuts what it reads at what could be shown", () => {
  // A piece of the key past RAW_CHARS is past anything shown: not read.
  expect(check(`${fill("好", RAW_CHARS)}${KEY}`)).not.toMatchObject({ reason: "secret" });
  expect(check(`${fill("好", RAW_CHARS - 40)}${KEY}`)).toMatchObject({ reason: "secret" });
});
