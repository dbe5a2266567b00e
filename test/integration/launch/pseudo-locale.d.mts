// The types of pseudo-locale.mjs, for the suite and the unit tests that import it.
export declare const PSEUDO_LOCALE: 'qps-ploc';
export declare const OPEN: string;
export declare const CLOSE: string;
export declare const PAD: string;
export declare const GROWTH: number;
export declare function pseudoText(english: string): string;
export declare function keptParts(text: string): string[];
export declare function pseudoWords(
  nls: Record<string, string>,
  runtimeKeys: readonly string[],
): { nls: Record<string, string>; bundle: Record<string, string> };
export declare function runtimeKeys(): string[];
export declare function writePseudoLocale(extensionDir: string): { nlsKeys: number; bundleKeys: number };
export declare function wordsOf(text: string): string[];
export declare function englishLeft(text: string, allowed: ReadonlySet<string>): string[];
