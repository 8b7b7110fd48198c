/** The `bhtrade` command line: dispatches to its subcommands. */
import { argv, exit, stdout, stderr } from 'node:process';
import { newStrategyCommand } from './new-strategy.ts';
import { recordCommand } from './record.ts';
import { runCommand } from './run.ts';
import { venueCommand } from './venue.ts';

const HELP = `bhtrade: event-driven algorithmic trading for the venue

Usage:
  bhtrade run CONFIG [--duration 30s]       run strategies from a YAML file
  bhtrade venue [--config FILE] [--host 127.0.0.1] [--port N] [--seed N]
                                            serve the simulated venue over HTTP and WebSocket
  bhtrade new-strategy NAME                 write a strategy template and its config
  bhtrade record [CONFIG] [--venue embedded|URL] [--symbols A,B] [--out DIR] [--duration 60s]
                                            record the market WebSocket to gzip line files
  bhtrade help                              show this help
`;

async function main(args: string[]): Promise<number> {
  const [cmd] = args;
  switch (cmd) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      stdout.write(HELP);
      return 0;
    case 'venue':
      return venueCommand(args.slice(1));
    case 'run':
      return runCommand(args.slice(1));
    case 'new-strategy':
      return newStrategyCommand(args.slice(1));
    case 'record':
      return recordCommand(args.slice(1));
    default:
      stderr.write(`bhtrade: unknown command '${cmd}'\n\n${HELP}`);
      return 2;
  }
}

exit(await main(argv.slice(2)));
