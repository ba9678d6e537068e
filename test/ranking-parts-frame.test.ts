/** A part that is only a question's frame about what the message named before it asks nothing of its own (ranking/parts.ts). */
import { expect, test } from "bun:test";
import { partsOf } from "../src/ranking/parts.ts";


test("a question's frame about what the part before it named asks nothing of its own", () => {
  const parts = partsOf("hi can i transfer my prescriptions from walgreens to u? how long does it take");
  expect(parts.map((p) => [p.text, p.asks])).toEqual([
    ["hi can i transfer my prescriptions from walgreens to u", true],
    ["how long does it take", false],
  ]);
  // A frame naming its thing is a question of its own.
  expect(partsOf("can i transfer my prescriptions? how long does the flu shot take").map((p) => p.asks)).toEqual([true, true]);
});
