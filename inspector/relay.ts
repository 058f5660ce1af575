/**
 * The local inspection relay lives in src/cli/relay.ts, so that the command line's
 * `simulate --stately` bridge (built into dist/) applies the same checks; the inspector's
 * server, its tests and its harness import it from here.
 */
export * from '../src/cli/relay.js';
