#!/usr/bin/env node
// The operator command. Built by `npm install` (prepare) into dist/.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
