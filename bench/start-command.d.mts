/** package.json's `start` as node's arguments (bench/start-command.mjs, T541); throws when it does not run `node`. */
export function startArgs(packageJson: string | URL): string[];
