/**
 * The house rules, enforced on every `npm test`: which part of the code may import which.
 * Run alone: `npm run deps`.
 */
module.exports = {
  forbidden: [
    {
      name: 'contract-stands-alone',
      comment:
        "contract/ is the API contract shared by the server and the PWA: it imports nothing of ours outside it, but the bot types' parameter schemas, which each strategy owns (strategy/<type>/params.ts, listed in strategy/params.ts) so that a new type is its own folder.",
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(src|server|strategy|sw|tests|bench|scripts)/', pathNot: '^strategy/(params|[^/]+/params|core/param-fields)\\.ts$' },
    },
    {
      name: 'params-are-schemas',
      comment:
        'A parameters module (what the contract imports of a strategy) is a schema only: zod, the shared field schemas and the other parameters modules, nothing that would pull strategy code into the contract.',
      severity: 'error',
      from: { path: '^strategy/(params|[^/]+/params|core/param-fields)\\.ts$' },
      to: { pathNot: '^(strategy/(params|[^/]+/params|core/param-fields)\\.ts$|node_modules/zod/)' },
    },
    {
      name: 'pwa-not-server',
      comment: 'The PWA never imports the server (contract/ and strategy/ are the shared parts).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'pwa-contract-types-only',
      comment:
        "The PWA takes the calls' definitions and schemas as types only: at run time they would bring zod into its files (the /login entry has a size budget). Their routes come as plain data (virtual:contract-calls, built by vite.config.ts); the contract's zod-free modules (codes, rules, envelope, ...) may be imported.",
      severity: 'error',
      from: { path: '^src/', pathNot: '(\\.test\\.tsx?|\\.d\\.ts)$' },
      to: {
        path: '^(contract/(call|calls|fields|auth|account|market|exchanges|bots|returns|funds|community|notices|alerts|strategy|components|views)\\.ts$|node_modules/zod/)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'server-not-pwa',
      comment: 'The server never imports the PWA (contract/ and strategy/ are the shared parts).',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'strategy-is-pure',
      comment: 'Pure strategy code: no I/O, no clock, no randomness, nothing of the server or the PWA; only decimal.js, zod, trading-signals (the custom bot indicators) and contract/.',
      severity: 'error',
      from: { path: '^strategy/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^(strategy/|contract/|node_modules/decimal\\.js/|node_modules/zod/|node_modules/trading-signals/)' },
    },
    {
      name: 'engine-not-http-or-services',
      comment: 'The engine (runner, book, persistence) knows nothing of HTTP or the business services.',
      severity: 'error',
      from: { path: '^server/engine/' },
      to: { path: '^server/(http|services)/' },
    },
    {
      name: 'services-not-http',
      comment: 'The business services know nothing of HTTP: routes call services, never the other way (bad input is services/errors.ts InputError).',
      severity: 'error',
      from: { path: '^server/services/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/http/' },
    },
    {
      name: 'exchanges-below-engine-and-services',
      comment: 'The venues (Paper, ccxt) are used by the engine and the services, never the other way: what they need of them (the keys) is handed in.',
      severity: 'error',
      from: { path: '^server/exchanges/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(engine|services|http)/' },
    },
    {
      name: 'market-below-exchanges',
      comment: 'The market data (prices, candles, tickers) sits under the venues: the venues read it, it never reads them.',
      severity: 'error',
      from: { path: '^server/market/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(exchanges|engine|services|http)/' },
    },
    {
      name: 'cluster-below-services',
      comment: 'Leases, commands and invalidations serve the engine and the services; the caches they drive are handed in.',
      severity: 'error',
      from: { path: '^server/cluster/', pathNot: '(\\.test\\.ts|cluster-support\\.ts|chaos[^/]*\\.ts)$' },
      to: { path: '^server/(services|http)/' },
    },
    {
      name: 'events-below-their-writers',
      comment:
        'server/events/ (the live-event log, the outbox, notices, the stream hub) is written to by the engine, the services, the ledger and the chain side: it imports only the database, the cluster notifications, the contract and packages.',
      severity: 'error',
      from: { path: '^server/events/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(store|market|exchanges|engine|services|http|chain|workers|push|webhooks|ledger\\.ts)' },
    },
    {
      name: 'db-at-the-bottom',
      comment: 'The database layer (connection, schema, migrations) imports nothing of the server above it: every table, the cluster tables too, is created here.',
      severity: 'error',
      from: { path: '^server/db/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(store|cluster|market|exchanges|engine|services|http|chain|workers|events|push|webhooks)/' },
    },
    {
      name: 'store-below-its-readers',
      comment:
        "server/store/ is the one code that reads and writes the bot tables (bots, bot_orders, bot_actions, batch_tasks): the engine, the services, the cluster, the venues and the routes call it, so it imports only the database, the strategies, the contract, the error helper and packages, never a layer that calls it (what it needs of them, like the simulated accounts' ids, is handed in as an argument).",
      severity: 'error',
      from: { path: '^server/store/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^(server/(store|db)/|server/errors\\.ts$|strategy/|contract/)|(^|/)node_modules/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'shared-not-features',
      comment: 'src/lib, src/shared and src/components serve the features and never import one.',
      severity: 'error',
      from: { path: '^src/(lib|shared|components)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'testing-stays-in-tests',
      comment:
        'server/testing/ holds the test harness (the test app, scripted markets, recorded exchanges, the cluster and chaos runs, the venue audit): tests and benches use it, the product never does; main.ts alone loads the venue audit, and only when the chaos test starts it with TEST_VENUE_AUDIT=1.',
      severity: 'error',
      from: { path: '^(server|src|strategy|contract|sw)/', pathNot: '(\\.test\\.tsx?$|\\.test-support\\.ts$|^server/testing/|^server/main\\.ts$)' },
      to: { path: '^server/testing/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports: a cycle ties modules that should stand apart, and its load order is an accident.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'features-apart',
      comment: 'A feature never reaches into another feature; shared code lives in src/lib or src/components.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'worker-not-react',
      comment: 'The service worker is plain TypeScript: no React, nothing of the app.',
      severity: 'error',
      from: { path: '^sw/' },
      to: { path: '(^src/|node_modules/react)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^node_modules|^dist|^\\.tools|routeTree\\.gen\\.ts$)' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
