import { defineConfig } from 'tsdown'

/**
 * The community package: CommonJS, as n8n loads nodes with require(); one file per node and per
 * credential where package.json's `n8n` field points, the generated fields inlined, n8n-workflow
 * left to the n8n that loads it (a peer dependency: verified community nodes carry no runtime
 * dependencies).
 */
export default defineConfig({
  entry: {
    'credentials/WaSessionGatewayApi.credentials': 'credentials/WaSessionGatewayApi.credentials.ts',
    'nodes/WaSessionGateway/WaSessionGateway.node': 'nodes/WaSessionGateway/WaSessionGateway.node.ts',
    'nodes/WaSessionGatewayTrigger/WaSessionGatewayTrigger.node':
      'nodes/WaSessionGatewayTrigger/WaSessionGatewayTrigger.node.ts',
  },
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  dts: false,
  fixedExtension: false,
  deps: { neverBundle: ['n8n-workflow'] },
  copy: [
    { from: 'nodes/WaSessionGateway/*.svg', to: 'dist/nodes/WaSessionGateway' },
    { from: 'nodes/WaSessionGatewayTrigger/*.svg', to: 'dist/nodes/WaSessionGatewayTrigger' },
    { from: 'credentials/*.svg', to: 'dist/credentials' },
  ],
  inputOptions: { checks: { pluginTimings: false } },
})
