#!/usr/bin/env node
// nook's stand-in for Oils' spec/bin/stdout_stderr.py: prints its first
// argument (STDOUT) to stdout, its second (STDERR) to stderr and exits
// with its third (0).
const [out = 'STDOUT', err = 'STDERR', status = '0'] = process.argv.slice(2);
process.stdout.write(out + '\n');
process.stderr.write(err + '\n');
process.exitCode = parseInt(status, 10);
