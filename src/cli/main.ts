/** The `bhtrade` command line: dispatches to its subcommands; `--help` for each, `--version`, exit 2 for what it does not know. */
import { readFileSync } from 'node:fs';
import { argv, exit, stdout, stderr } from 'node:process';
import { BACKTEST_HELP, backtestCommand } from './backtest.ts';
import { DATA_HELP, dataCommand } from './data.ts';
import { LOOKAHEAD_HELP, lookaheadCommand } from './lookahead.ts';
import { NEW_STRATEGY_HELP, newStrategyCommand } from './new-strategy.ts';
import { PARITY_HELP, parityCommand } from './parity.ts';
import { RECORD_HELP, recordCommand } from './record.ts';
import { RUN_HELP, runCommand } from './run.ts';
import { VENUE_HELP, venueCommand } from './venue.ts';

const HELP = `bhtrade: event-driven algorithmic trading for the venue

Usage:
  npx bhtrade run CONFIG [--duration 30s]   run strategies from a YAML file
  npx bhtrade backtest CONFIG [--data CATALOG] [--from T] [--to T] [--out DIR]
                                            backtest a config's strategies on recorded data
                                            (--sweep PATH=VALUES: every combination, in worker threads)
  npx bhtrade parity CONFIG [--duration 10m] [--out DIR]
                                            run a config live and backtest it on the recording: parity
  npx bhtrade lookahead CONFIG [--points N] check a config's strategies for lookahead in a backtest
  npx bhtrade venue [--config FILE] [--host 127.0.0.1] [--port N] [--seed N] [--start-time MS]
                                            serve the simulated venue over HTTP and WebSocket
  npx bhtrade new-strategy NAME [--dir DIR] write a strategy template and its config
  npx bhtrade record [CONFIG] [--venue embedded|URL] [--symbols A,B] [--out DIR] [--duration 60s]
                                            record the market WebSocket to gzip line files
  npx bhtrade data convert RAW... --out CATALOG [--map FILE] | ls CATALOG | info CATALOG
                                            build and inspect a Parquet catalog of market data
  npx bhtrade COMMAND --help                show a command's options
  npx bhtrade --version                     show the version
`;

/** Each command: its help text and what runs it. */
const COMMANDS: Record<string, { readonly help: string; readonly run: (args: string[]) => number | Promise<number> }> = {
  run: { help: RUN_HELP, run: runCommand },
  backtest: { help: BACKTEST_HELP, run: backtestCommand },
  parity: { help: PARITY_HELP, run: parityCommand },
  lookahead: { help: LOOKAHEAD_HELP, run: lookaheadCommand },
  venue: { help: VENUE_HELP, run: venueCommand },
  'new-strategy': { help: NEW_STRATEGY_HELP, run: newStrategyCommand },
  record: { help: RECORD_HELP, run: recordCommand },
  data: { help: DATA_HELP, run: dataCommand },
};

/** Returns the package's version from its package.json. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the command line `args`; returns the exit code (0 done, 1 failed, 2 bad usage). */
async function main(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  switch (cmd) {
    case undefined:
    case 'help':
    case '--help':
    case '-h': {
      const topic = cmd === 'help' ? rest[0] : undefined;
      if (topic !== undefined && COMMANDS[topic] === undefined) return unknown(`unknown command '${topic}'`);
      stdout.write(topic === undefined ? HELP : COMMANDS[topic]!.help);
      return 0;
    }
    case '--version':
    case '-v':
    case 'version':
      stdout.write(`bhtrade ${version()}\n`);
      return 0;
    default: {
      const c = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
      if (c === undefined) return unknown(cmd.startsWith('-') ? `unknown option ${cmd}` : `unknown command '${cmd}'`);
      if (rest.includes('--help') || rest.includes('-h')) {
        stdout.write(c.help);
        return 0;
      }
      return c.run(rest);
    }
  }
}

function unknown(what: string): number {
  stderr.write(`bhtrade: ${what} (commands: ${Object.keys(COMMANDS).join(', ')}; see npx bhtrade --help)\n`);
  return 2;
}

exit(await main(argv.slice(2)));
