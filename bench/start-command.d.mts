/** package.json's `start` as node's arguments (bench/start-command.mjs, T541); throws when it does not run `node`. */
export function startArgs(packageJson: string | URL): string[];
/** node's own flags in package.json's `start`, for the bare server (bench/start-command.mjs, T543); throws as {@link startArgs}. */
export function startFlags(packageJson: string | URL): string[];
