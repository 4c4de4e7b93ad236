/** The hash of every file under each of `sources` (paths relative to `root`). */
export function sourcesHash(root: string, sources: readonly string[]): string;
/** Whether the build stamped in `stamp` (a file under `root`) was made from sources hashing to `hash`. */
export function stampMatches(root: string, stamp: string, hash: string): boolean;
