#!/usr/bin/env node
/** `npx kitauth …` (package.json `bin`). */
import { main } from './main.js';
import { processTerminal } from './terminal.js';

process.exitCode = await main(process.argv.slice(2), processTerminal());
