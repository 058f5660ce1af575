#!/usr/bin/env node
// The command-line entry point; the commands are in src/cli/ (built to dist/src/cli/).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
