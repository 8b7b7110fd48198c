// The Gateway contract on SimGateway, in-process over the same engine.
import { gatewayContract } from './contract.ts';
import { simHarness } from './harness.ts';

gatewayContract('SimGateway', simHarness);
