// A default-configured TypeScript host renders a long video: the official MCP TypeScript SDK
// client, as most hosts embed it, with its default 60 s request timeout, drives `rendervisor mcp`
// the way the guide teaches (render_start, then render_status with wait until the job ends).
//
//     node scripts/peers/ts_host_render.mjs PACKAGE_FOLDER OUTPUT SECONDS PYTHON REPO
//
// PACKAGE_FOLDER holds node_modules with @modelcontextprotocol/sdk and ajv (scripts/
// ts_host_render.py installs them in a temporary folder). Every input and output schema is
// compiled with Ajv 2020 in strict mode, every tool result is checked against its tool's
// outputSchema (by the SDK itself, and again here), and every call is timed. Prints one JSON
// object.

import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const [packageFolder, output, secondsText, python, repo] = process.argv.slice(2)
const seconds = Number(secondsText || 180)
const require = createRequire(path.join(packageFolder, 'package.json'))
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { DEFAULT_REQUEST_TIMEOUT_MSEC } = require('@modelcontextprotocol/sdk/shared/protocol.js')
const sdkVersion = JSON.parse(fs.readFileSync(path.join(packageFolder, 'node_modules',
  '@modelcontextprotocol', 'sdk', 'package.json'))).version
const Ajv2020 = require('ajv/dist/2020.js').default

const transport = new StdioClientTransport({ command: python, args: ['-m', 'supervisor.cli', 'mcp'], cwd: repo, stderr: 'inherit' })
const client = new Client({ name: 'ts-host-render', version: '1.0.0' })  // default options
await client.connect(transport)

const ajv = new Ajv2020({ strict: true, allErrors: true })
const { tools } = await client.listTools()
const outputValidators = new Map()
const schemaProblems = []
for (const tool of tools) {
  for (const [kind, schema] of [['inputSchema', tool.inputSchema], ['outputSchema', tool.outputSchema]]) {
    if (!schema) continue
    try {
      const validate = ajv.compile(schema)
      if (kind === 'outputSchema') outputValidators.set(tool.name, validate)
    } catch (error) {
      schemaProblems.push(`${tool.name} ${kind}: ${error.message}`)
    }
  }
}

const calls = []
async function call(name, args) {
  const started = performance.now()
  const result = await client.callTool({ name, arguments: args })  // the default timeout
  const took = (performance.now() - started) / 1000
  const validate = outputValidators.get(name)
  const valid = validate ? validate(result.structuredContent) : null
  calls.push({ name, seconds: Math.round(took * 1000) / 1000, isError: !!result.isError, valid })
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`)
  if (valid === false) throw new Error(`${name}'s result breaks its outputSchema: ${ajv.errorsText(validate.errors)}`)
  return result
}

const steps = [
  { id: 'comp.new', params: { name: 'Long', width: 1280, height: 720, frameRate: 30, duration: seconds, background: '#10141c' } },
  { id: 'layer.add', params: { comp: '$0.comp', type: 'shape', name: 'Backdrop', shape: 'rect', size: [1280, 720],
      fill: { type: 'linear', start: [0, 0], end: [1280, 720], stops: [[0, '#10141c'], [1, '#2a3f6b']] } } },
  { id: 'layer.add', params: { comp: '$0.comp', type: 'shape', name: 'Orb', shape: 'ellipse', size: [160, 160], fill: '#ffb347' } },
  { id: 'prop.addKey', params: { comp: '$0.comp', layer: '$2.layer', path: 'transform.position', time: 0, value: [200, 360] } },
  { id: 'prop.addKey', params: { comp: '$0.comp', layer: '$2.layer', path: 'transform.position', time: seconds, value: [1080, 360] } },
  { id: 'layer.add', params: { comp: '$0.comp', type: 'text', name: 'Title', text: 'Three minutes, one host timeout', size: 56, fill: '#ffffff', position: [640, 140] } },
  { id: 'preset.apply', params: { comp: '$0.comp', layer: '$5.layer', preset: 'fadeIn' } },
  { id: 'renderQueue.add', params: { comp: '$0.comp', output, codecOptions: { preset: 'veryfast' } } },
]
const built = await call('command_batch', { steps })
const started = performance.now()
const { structuredContent: start } = await call('render_start', {})
let status
const progress = []
do {
  status = (await call('render_status', { job: start.job, wait: 30 })).structuredContent
  progress.push(status.progress)
} while (status.state === 'rendering')
const renderSeconds = (performance.now() - started) / 1000
await client.close()

console.log(JSON.stringify({
  sdk: `@modelcontextprotocol/sdk ${sdkVersion}`,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MSEC,
  comp: { width: 1280, height: 720, frameRate: 30, seconds },
  built: built.structuredContent.completed,
  state: status.state,
  frames: `${status.progress}/${status.total}`,
  output: status.items[0].output,
  renderSeconds: Math.round(renderSeconds * 10) / 10,
  calls: calls.length,
  renderStatusCalls: calls.filter((c) => c.name === 'render_status').length,
  progressAtEachStatus: progress.join(' '),
  longestCallSeconds: Math.max(...calls.map((c) => c.seconds)),
  resultsValidated: calls.filter((c) => c.valid === true).length,
  schemasCompiledStrict: tools.reduce((n, t) => n + 1 + (t.outputSchema ? 1 : 0), 0) - schemaProblems.length,
  schemaProblems,
}, null, 1))
