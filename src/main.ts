#!/usr/bin/env bun
import { run } from "./cli/index.ts";
import { processIO } from "./cli/io.ts";

const code = await run(process.argv.slice(2), processIO());
// Let buffered output (the last log lines after a SIGTERM) reach the pipe before exiting.
await new Promise<void>((done) => process.stdout.write("", () => done()));
process.exit(code);
