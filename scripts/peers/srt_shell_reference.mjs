// The peer of the sandboxed shell's start-up cost: Anthropic's sandbox runtime
// (@anthropic-ai/sandbox-runtime, what Claude Code runs its commands under on Linux, bubblewrap
// too), used as Claude Code uses it: initialized once, then each command wrapped and spawned
// with a shell. Measured per command: the wrap (it searches the working folder with ripgrep
// for files it must keep read-only) and the spawn to its exit, beside the same command spawned
// with no sandbox.
//
//     node scripts/peers/srt_shell_reference.mjs PACKAGE_FOLDER WRITE_ROOT SPAWNS
//
// PACKAGE_FOLDER is the installed package (npm install @anthropic-ai/sandbox-runtime, then
// node_modules/@anthropic-ai/sandbox-runtime); on Linux it needs bwrap, socat and rg. Its
// configuration is the closest to a confined session's: writes to WRITE_ROOT only, no network
// (no allowed domain). Reads stay its default, everywhere. Prints one JSON object.

import { spawnSync } from 'node:child_process'
import path from 'node:path'

const [packageFolder, writeRoot, spawnsText] = process.argv.slice(2)
const spawns = Number(spawnsText || 300)
const { SandboxManager } = await import(path.join(packageFolder, 'dist', 'index.js'))

await SandboxManager.initialize({
  network: { allowedDomains: [], deniedDomains: [] },
  filesystem: { denyRead: [], allowWrite: [writeRoot], denyWrite: [] },
})

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const rounded = value => Math.round(value * 100) / 100

// Medians in ms of the wrap (sandboxed only), the spawn to exit, and the two together.
async function times(command, sandboxed) {
  const wraps = [], runs = [], totals = []
  for (let i = 0; i < spawns; i++) {
    const started = performance.now()
    const line = sandboxed ? await SandboxManager.wrapWithSandbox(command) : command
    const wrapped = performance.now()
    const run = spawnSync('/bin/sh', ['-c', line], { cwd: writeRoot, stdio: 'ignore' })
    if (run.status !== 0) throw new Error(`${command} exited with ${run.status}`)
    const ended = performance.now()
    wraps.push(wrapped - started)
    runs.push(ended - wrapped)
    totals.push(ended - started)
  }
  return { wrap: rounded(median(wraps)), run: rounded(median(runs)),
           total: rounded(median(totals)) }
}

const result = {}
for (const [name, command] of [['true', 'true'], ['python3', '/usr/bin/python3 -c pass']]) {
  const host = await times(command, false)
  const sandbox = await times(command, true)
  result[name] = { host_median_ms: host.total, srt_median_ms: sandbox.total,
                   srt_wrap_median_ms: sandbox.wrap, srt_spawn_median_ms: sandbox.run,
                   difference_ms: rounded(sandbox.total - host.total) }
}
await SandboxManager.reset()
console.log(JSON.stringify(result))
