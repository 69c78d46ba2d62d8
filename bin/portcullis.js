#!/usr/bin/env -S node --no-node-snapshot
// The installed `portcullis` command: runs the compiled CLI (npm run build produces dist/).
import '../dist/main.js';
