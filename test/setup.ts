/** Preloaded before every test file (bunfig.toml): what the whole run shares is torn down once, after its last file. */
import { afterAll } from "bun:test";
import { stopSharedCluster } from "./pg.ts";

afterAll(stopSharedCluster, 60_000);
