#!/usr/bin/env bun
import { run } from "./cli/index.ts";
import { processIO } from "./cli/io.ts";

const code = await run(process.argv.slice(2), processIO());
process.exit(code);
