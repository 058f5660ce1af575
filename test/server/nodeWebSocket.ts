/**
 * Imported first by the tests that render React under jsdom: colyseus.js takes
 * `globalThis.WebSocket` when there is one, and jsdom's environment has one whose events Node's
 * own event target refuses. Without it colyseus.js takes the `ws` package, as in Node.
 */
delete (globalThis as { WebSocket?: unknown }).WebSocket;
