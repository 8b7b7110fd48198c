// The Gateway contract on RestGateway, over loopback to the simulated venue's real server.
import { gatewayContract } from './contract.ts';
import { restHarness } from './harness.ts';

gatewayContract('RestGateway', restHarness);
