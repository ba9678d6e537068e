import { badRequest } from "../base/errors.ts";
import type { Param } from "../sign.ts";

/** The verified fields of an admin request, with the checks every route needs. */
export class Fields {
  constructor(private readonly params: readonly Param[]) {}

  has(name: string): boolean {
    return this.params.some(([k]) => k === name);
  }

  /** The value of `name`, or undefined (repeated fields were refused before any route ran). */
  get(name: string): string | undefined {
    return this.params.find(([k]) => k === name)?.[1];
  }

  require(name: string): string {
    const v = this.get(name);
    if (v === undefined || v === "") throw badRequest(`"${name}" is required`);
    return v;
  }

  int(name: string, min: number, max: number, fallback: number): number {
    const v = this.get(name);
    if (v === undefined || v === "") return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw badRequest(`"${name}" must be a whole number from ${min} to ${max}`);
    return Number(v);
  }

  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (["1", "true", "yes"].includes(v.toLowerCase())) return true;
    if (["0", "false", "no", ""].includes(v.toLowerCase())) return false;
    throw badRequest(`"${name}" must be true or false (1 or 0)`);
  }

  /** Refuses fields the route does not know, so a typo is an error instead of a silent no-op. */
  only(allowed: readonly string[]): this {
    const unknown = [...new Set(this.params.map(([k]) => k))].filter((k) => !allowed.includes(k));
    if (unknown.length) throw badRequest(`unknown field${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}; expected some of: ${allowed.join(", ")}`, "unknown_field");
    return this;
  }

  names(): string[] {
    return [...new Set(this.params.map(([k]) => k))];
  }
}
