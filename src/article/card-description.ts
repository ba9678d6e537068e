/**
 * What a card (a news item) says under an article's title: its description, else its body's
 * opening — a card of a title alone says nothing on a phone. The callback's card and a
 * customer-service message's alike (replyd reply --article had sent a title alone: a walkthrough).
 */
import { truncateUtf8 } from "../base/utf8.ts";

/** A news description longer than this is cut (the platform's client shows a few lines of it). */
export const NEWS_DESCRIPTION_BYTES = 1024;

export const cardDescription = (a: { description: string; body?: string }): string => a.description || truncateUtf8((a.body ?? "").slice(0, NEWS_DESCRIPTION_BYTES).trim(), NEWS_DESCRIPTION_BYTES);
