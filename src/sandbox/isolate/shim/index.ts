/**
 * The entry of the in-isolate shim program (bundled by ../bundle.ts). Import order is evaluation order: the
 * bridge first (it takes the host callbacks off the global object and captures intrinsics before anything
 * else runs), then the globals each module installs. Its one export is the `settle` function the host uses
 * to resolve asynchronous helper calls.
 */
export { settle } from './bridge.ts';
import './encoding.ts';
import './url.ts';
import './crypto.ts';
import './fetch.ts';
import './fs.ts';
import './parser.ts';
import './run.ts';
