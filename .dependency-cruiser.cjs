/**
 * The layering of README "Project layout", checked by `npm run check:layers` (part of `npm test`), so a later change
 * cannot quietly undo it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter and modules impossible to test alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'lib/domain is pure TypeScript shared by pages, islands, server and pipeline: it imports nothing of ours outside lib/domain.',
      from: { path: '^src/lib/domain/' },
      to: { path: '^src/', pathNot: '^src/lib/domain/' },
    },
    {
      name: 'server-not-pipeline',
      severity: 'error',
      comment: 'The live server and the daily job share storage/, never each other.',
      from: { path: '^src/server/' },
      to: { path: '^src/ingest/' },
    },
    {
      name: 'pipeline-not-server',
      severity: 'error',
      comment: 'The live server and the daily job share storage/, never each other.',
      from: { path: '^src/ingest/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'storage-is-below',
      severity: 'error',
      comment: 'storage/ reads and writes files for both the server and the pipeline, so it imports neither.',
      from: { path: '^src/storage/' },
      to: { path: '^src/(server|ingest)/' },
    },
    {
      name: 'browser-code-stays-in-the-browser',
      severity: 'error',
      comment: 'Islands, DOM scripts, stores and the client data layer run in the browser: no server, pipeline, storage or config.',
      from: { path: '^src/(islands|scripts|stores|lib/client|directives|renderers)/' },
      to: { path: '^src/(server|ingest|storage|config\\.ts)' },
    },
    {
      name: 'config-reads-only-the-domain',
      severity: 'error',
      comment: 'src/config.ts is read by everything, so it may only use the pure domain.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/', pathNot: '^src/lib/domain/' },
    },
    {
      name: 'nothing-imports-the-scripts',
      severity: 'error',
      comment: 'scripts/ holds entry points; the product never imports them.',
      from: { path: '^src/' },
      to: { path: '^scripts/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.tmp|\\.astro)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.mjs', '.js'] },
  },
};
