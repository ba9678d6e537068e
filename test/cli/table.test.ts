/** Columns that line up whatever their content (issue 35 D): a Chinese character takes two terminal columns. */
import { expect, test } from "bun:test";
import { cutColumns, table } from "../../src/cli/table.ts";

test("columns line up in terminal columns, CJK counted double; numbers on the right; the last column runs on", () => {
  const lines = table(
    [
      ["SEQ", "FROM", "ANSWER", "TEXT"],
      ["7", "o_follower", "fallback", "还能退款吗"],
      ["12345", "退款助手", "answer:refund-policy", "a long text that runs on and on"],
    ],
    [{ right: true }],
  );
  expect(lines).toEqual([
    "  SEQ  FROM        ANSWER                TEXT",
    "    7  o_follower  fallback              还能退款吗",
    "12345  退款助手    answer:refund-policy  a long text that runs on and on",
  ]);
  // Each column starts at the same terminal column on every line.
  const starts = lines.map((l) => Bun.stringWidth(l.slice(0, l.indexOf(l.includes("fallback") ? "fallback" : l.includes("ANSWER") ? "ANSWER" : "answer:"))));
  expect(new Set(starts).size).toBe(1);
});

test("a cell past its column's cap is cut with … within the cap, counting CJK double", () => {
  expect(cutColumns("短", 5)).toBe("短");
  expect(Bun.stringWidth(cutColumns("这是一个很长很长的回答", 9))).toBeLessThanOrEqual(9);
  expect(cutColumns("这是一个很长很长的回答", 9).endsWith("…")).toBe(true);
  expect(table([["abcdefghij", "x"]], [{ max: 5 }])).toEqual(["abcd…  x"]);
});
