// CPU time of the processes on this machine, grouped by what they are, read from Linux's /proc: the
// exchange's apps (by working directory), PostgreSQL, NATS, Redis, the kernel's own threads (disk
// writeback among them) and the rest. On these shared two-core machines a load test's figures only mean
// something next to what every process spent for them.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux x86-64

function groupOf(pid, command) {
  if (command === 'node' || command === 'MainThread') {
    if (pid === process.pid) return 'load generator';
    try {
      const app = /\/apps\/([^/]+)$/.exec(readlinkSync(`/proc/${pid}/cwd`));
      if (app) return app[1];
    } catch {
      // Gone meanwhile.
    }
    return 'other';
  }
  if (command.startsWith('postgres')) return 'postgres';
  if (command === 'nats-server' || command === 'redis-server') return command;
  return 'other';
}

/** CPU ticks and group per process, and the machine's busy and total ticks and context switches. */
export function cpuSnapshot() {
  const processes = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // Kernel threads have no command line.
    const group = commandLine === '' ? 'kernel threads' : groupOf(Number(entry), command);
    processes.set(entry, { group, ticks });
  }
  const machineStat = readFileSync('/proc/stat', 'utf8');
  const machine = machineStat.split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = machine.reduce((a, b) => a + b, 0);
  const idle = machine[3] + machine[4]; // idle + iowait
  const contextSwitches = Number(/^ctxt (\d+)$/m.exec(machineStat)[1]);
  return { processes, busy: total - idle, total, contextSwitches };
}

/**
 * Milliseconds of CPU per `units` between two snapshots, per group (largest first) and for the machine,
 * and the machine's context switches per unit: on these virtual machines a switch costs several
 * microseconds, so how often processes wake matters as much as what they compute.
 */
export function cpuPerUnit(before, after, units) {
  const perUnit = (ticks) => (ticks * 1000) / TICKS_PER_SECOND / units;
  // Per process, so that one that ends in between takes nothing from its group; what a process spent
  // after the first snapshot and before ending is not seen (short-lived kernel workers, say).
  const spent = new Map();
  for (const [pid, { group, ticks }] of after.processes) {
    spent.set(group, (spent.get(group) ?? 0) + ticks - (before.processes.get(pid)?.ticks ?? 0));
  }
  const groups = [...spent]
    .map(([group, ticks]) => [group, perUnit(ticks)])
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
  const idleShare = 1 - (after.busy - before.busy) / (after.total - before.total);
  const contextSwitches = (after.contextSwitches - before.contextSwitches) / units;
  return { groups, machine: perUnit(after.busy - before.busy), idleShare, contextSwitches };
}
