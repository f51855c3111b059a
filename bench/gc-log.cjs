// A preload that logs the garbage collections of a process with their wall-clock times, so that slow
// answers of a load run can be matched to the pauses of the process that made them (slow-answers.mjs):
//   GC_LOG_DIR=/tmp/gc NODE_OPTIONS="--require $PWD/bench/gc-log.cjs" ./scripts/start.sh
// Each process appends "<epoch ms> <major|minor|incremental|weak> <ms>" lines to
// $GC_LOG_DIR/gc-<folder of the process>-<pid>.log; scavenges under 2 ms are left out (hundreds a second).
// Without GC_LOG_DIR it does nothing. CommonJS: `--require` loads it before the app.
'use strict';
const { appendFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

const dir = process.env.GC_LOG_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `gc-${path.basename(process.cwd())}-${process.pid}.log`);
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  new PerformanceObserver((list) => {
    const lines = list
      .getEntries()
      .map((entry) => ({ kind: kinds[entry.detail.kind] ?? 'other', entry }))
      .filter(({ kind, entry }) => kind !== 'minor' || entry.duration >= 2)
      .map(({ kind, entry }) => `${(performance.timeOrigin + entry.startTime).toFixed(0)} ${kind} ${entry.duration.toFixed(1)}\n`);
    // Synchronous and rare (a few lines a second): the order of lines is the order of collections.
    if (lines.length > 0) appendFileSync(file, lines.join(''));
  }).observe({ entryTypes: ['gc'] });
}
