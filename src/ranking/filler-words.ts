/**
 * Filler of questions found in the evaluation data (bench/eval/filler.ts --min 4 --hit 0.2): words asked in at least
 * 4 tuning questions of two sources or more, and held by an article that answers at most 20 % of the time.
 * Generated: do not edit by hand.
 */
export const FILLER_HAN: readonly string[] = ["么","么取","什","什么","几","吗","哪","哪个","在哪","多少"];

export const FILLER_LATIN: readonly string[] = ["ani","do","doe","how","much","u","what","where","why"];
