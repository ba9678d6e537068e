import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { KeyStoreError, refuseEnvironmentKey, type KeyStore } from "../key-store.ts";
import { parseKeys, writeKeys, type AdminKey } from "../keys.ts";
import { environmentKeyOf } from "./environment-key.ts";

/**
 * keys.json in a data folder. A folder that is not a data folder (a typo, the wrong working
 * directory) is said to be one; only an addition makes a keys.json.
 */
export function keyFile(dir: string, opts: { adding: boolean }): KeyStore {
  const path = join(dir, "keys.json");
  if (!existsSync(dir)) throw new KeyStoreError("no_data", `${dir} does not exist: run this on the server host, in the folder replyd serve runs in, or pass --data (or REPLYD_DATA)`);
  const served = environmentKeyOf(dir);
  if (!existsSync(path) && !opts.adding && !served)
    throw new KeyStoreError("no_data", `${dir} holds no keys.json: it is not a replyd data folder, or its server takes its key from REPLYD_APPKEY/REPLYD_SECRET and is not running (pass --data for another folder)`);
  const read = (): AdminKey[] => (existsSync(path) ? parseKeys(readFileSync(path, "utf8"), path) : []);
  return {
    where: path,
    stored: async () => read(),
    servedFromEnvironment: async () => (served ? [served] : []),
    add: async (key) => writeKeys(path, [...read(), key]),
    async remove(appkey) {
      refuseEnvironmentKey(appkey, served ? [served] : []);
      const current = read();
      if (!current.some((k) => k.appkey === appkey)) throw new KeyStoreError("not_found", `no key "${appkey}" in ${path}`);
      writeKeys(path, current.filter((k) => k.appkey !== appkey));
    },
    close: async () => {},
  };
}
