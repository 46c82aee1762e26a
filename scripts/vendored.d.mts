// Types of scripts/vendored.mjs (the bundled packages), for the TypeScript tests that read the list.
export interface Vendored {
  /** The npm package. */
  name: string;
  /** Our re-export module, without extension (`src/store/kysely`). */
  module: string;
  /** Imports left outside the bundle; nothing our module re-exports uses them, so the bundle drops them. */
  external: string[];
}

export declare const VENDORED: readonly Vendored[];
