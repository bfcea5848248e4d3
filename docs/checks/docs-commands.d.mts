/** Types of docs-commands.mjs (the documented command lines, T355); see there. */
export declare const README_SECTIONS: readonly string[];
export declare const SKIPPED: Readonly<Record<string, string>>;
export declare function shellLines(text: string): string[];
export declare function documentedLines(dir: string): { readme: string[]; deploy: string[] };
export declare function isServerLine(line: string): boolean;
export declare const STOPPED_LINE: string;
export declare const READY: RegExp;
