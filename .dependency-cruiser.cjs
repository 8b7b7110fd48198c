// Layering of DESIGN.md: imports point inward (down the table), never up. Checked in `npm test`.
const layer = (name) => `^src/${name}/`;
const forbid = (from, allowed) => ({
  name: `${from}-imports-only-${allowed.join('-') || 'nothing'}`,
  severity: 'error',
  from: { path: layer(from) },
  to: {
    path: '^src/',
    pathNot: [layer(from), ...allowed.map(layer)],
  },
});

module.exports = {
  forbidden: [
    forbid('core', []),
    forbid('model', ['core']),
    forbid('venue', ['core', 'model']),
    forbid('bus', ['core', 'model']),
    forbid('risk', ['core', 'model']),
    forbid('execution', ['core', 'model', 'bus', 'risk']),
    forbid('strategy', ['core', 'model', 'bus']),
    forbid('sim', ['core', 'model']),
    forbid('data', ['core', 'model', 'venue', 'bus']),
    forbid('backtest', ['core', 'model', 'venue', 'bus', 'risk', 'execution', 'strategy', 'sim', 'data']),
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    { name: 'not-to-test', severity: 'error', from: { path: '^src/' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
