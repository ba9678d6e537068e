/**
 * Words a phone's typist shortens, read as the word itself (words.ts): "need to cancel my appt
 * tomorrow" meets an article on cancelling appointments, "acct" an account. Only shortenings that
 * stand for one word wherever they are met — not "min" (minute, minimum), "sub" (subscription,
 * substitute, a sandwich), "inv", "temp", "docs" or "app", which is a word; nor "info" and "pkg",
 * which name programs too (Debian's info pages had come to mean "information" in its FAQ, and a
 * question searching for information found them first). And the other way: a system's full name as
 * the short one followers write. In questions and articles alike.
 */
const SHORT_FOR: Readonly<Record<string, string>> = {
  appt: "appointment", appts: "appointments", acct: "account", accts: "accounts",
  msg: "message", msgs: "messages", pic: "picture", pics: "pictures",
  pw: "password", pwd: "password", addr: "address", govt: "government", dept: "department",
  yr: "year", yrs: "years", hr: "hour", hrs: "hours", mins: "minutes", wk: "week", wks: "weeks",
  tmrw: "tomorrow", tmr: "tomorrow", bday: "birthday", ppl: "people", thru: "through",
  diff: "difference", approx: "approximately", qty: "quantity", mgr: "manager",
  // A system as help centres name it, read as followers name it: "mac版在哪下" of an article listing
  // "macOS 12 及以上" (our Chinese FAQ's notes app had refused it, holding no word of it).
  macos: "mac", osx: "mac",
};

/** The word a shortening stands for; undefined for any other word (a Map: "constructor" is no key of it). */
export const expanded = (word: string): string | undefined => ABBREVIATED.get(word);
const ABBREVIATED = new Map(Object.entries(SHORT_FOR));
