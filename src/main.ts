#!/usr/bin/env bun
import { run } from "./cli/index.ts";
import { processIO } from "./cli/io.ts";
import { written } from "./base/output.ts";

const code = await run(process.argv.slice(2), processIO());
// Exit only when every byte printed has left: a slow reader of a pipe gets the whole output.
await written();
process.exit(code);
