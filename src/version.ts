/**
 * What this binary is: replyd's version (package.json), the machine it was built for and the
 * commit it was built from. scripts/build and scripts/release fill the last two in at compile
 * time (`--define`); run from source they say so.
 */
import pkg from "../package.json" with { type: "json" };

declare const REPLYD_BUILD_TARGET: string | undefined;
declare const REPLYD_BUILD_COMMIT: string | undefined;

export const VERSION: string = pkg.version;

/** The target it was compiled for (linux-x64, darwin-arm64, windows-x64 …); run from source, this machine's. */
export const BUILD_TARGET: string = typeof REPLYD_BUILD_TARGET === "string" ? REPLYD_BUILD_TARGET : `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

/** The commit it was built from ("+" when the tree held changes); "source" when not compiled. */
export const BUILD_COMMIT: string = typeof REPLYD_BUILD_COMMIT === "string" ? REPLYD_BUILD_COMMIT : "source";
