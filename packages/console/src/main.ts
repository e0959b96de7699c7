#!/usr/bin/env node
import { run } from './cli.js';
import { processIo } from './io.js';

// A reader that goes away (`code-console | head`) is not an error of the console.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), processIo());
