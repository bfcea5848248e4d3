/** package.json's `start` as node's arguments (bench/start-command.mjs, T541); throws when it does not run `node`. */
export function startArgs(packageJson: string | URL): string[];
/** node's own flags among {@link startArgs}'s result (the words before the script), for the bare server (bench/start-command.mjs, T543). */
export function startFlags(args: readonly string[]): string[];
