/**
 * A word as one argument of a command the operator copies into a shell (bash, zsh, PowerShell):
 * as it is when it holds only letters, digits and marks no shell reads ("金卡", "refund"); else in
 * single quotes, a quote inside closed and reopened ("Q&A", "price(s)", "wifi?", "it's") — a double
 * quote had left `&`, `;`, `|` and zsh's `?` to the shell (a review).
 */
const PLAIN = /^[\p{L}\p{N}_.,:/@%+=-]+$/u;

export const shellWord = (word: string): string => (PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
