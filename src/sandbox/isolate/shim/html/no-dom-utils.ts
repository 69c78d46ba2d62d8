/**
 * Stands in for `domutils` in the isolate bundle (bundle.ts aliases it here). css-select imports domutils only as
 * its default adapter for domhandler trees; select.ts always passes its own adapter, and leaving domutils out
 * keeps its entity tables (about 100 kB) out of every fresh context.
 */
export {};
