/**
 * The layering of README "Project layout", checked by `npm run check:layers` (part of `npm test`), so a later change
 * cannot quietly undo it.
 */
/** What runs on a production install: the product, the astro build's config, and every script but the dev-only ones below. */
const RUNTIME_CODE = '^(src/|scripts/|astro\\.config\\.mjs$)';
/** Scripts only a contributor runs (on a full `npm ci`): benchmark, tests, dev server, sample exports, screenshots, lockfile. */
const DEV_SCRIPTS = '^scripts/((bench|sample)/|(bench|test|dev|make-sample-exports|screenshots|complete-lockfile)\\.(ts|mjs)$)';

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
      to: { path: '^src/(server|ingest|storage|config\\.ts)', pathNot: '^src/server/' },
    },
    {
      name: 'browser-code-never-imports-the-server',
      severity: 'error',
      comment: 'Browser code never imports the server; lib/client alone reads its types (next rule).',
      from: { path: '^src/(islands|scripts|stores|directives|renderers)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'client-reads-only-the-server-types',
      severity: 'error',
      comment: 'lib/client may import the server\'s types (the API contract, AppType, erased at build) for its typed client, never its code.',
      from: { path: '^src/lib/client/' },
      to: { path: '^src/server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'scripts-never-import-islands',
      severity: 'error',
      comment: 'DOM scripts run without React; an island that needs a script imports it, never the other way (a component or an island mounts islands).',
      from: { path: '^src/scripts/' },
      to: { path: '^src/islands/' },
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
    {
      name: 'runtime-imports-dependencies',
      severity: 'error',
      comment:
        'The server, the daily job (astro build included) and the operator scripts run on `npm ci --omit=dev`: a package they import at run time belongs in "dependencies". pino-pretty is optional (JSON logs without it).',
      from: { path: RUNTIME_CODE, pathNot: DEV_SCRIPTS },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: '^node_modules/pino-pretty/' },
    },
    {
      name: 'runtime-imports-declared-packages',
      severity: 'error',
      comment: 'A package that is only a dependency of a dependency may vanish from any install: name it in package.json.',
      from: { path: RUNTIME_CODE, pathNot: DEV_SCRIPTS },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'runtime-not-into-dev-scripts',
      severity: 'error',
      comment: 'The benchmark, test, sample and screenshot scripts may use devDependencies, so runtime code never imports them.',
      from: { path: RUNTIME_CODE, pathNot: DEV_SCRIPTS },
      to: { path: DEV_SCRIPTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Anchored at the root: a package's own dist/ folder is what an import resolves to, and must stay in the graph.
    exclude: { path: '^(dist|\\.tmp|\\.astro)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.mjs', '.js'] },
  },
};
