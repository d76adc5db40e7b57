/**
 * The NetSuite stand-in of `bench:checkout`, as a process of its own so that its CPU is reported apart
 * from the shop's: the test server speaking SuiteTalk REST (workers/test/support/netsuite-stub.ts) on
 * BENCH_NETSUITE_PORT, answering at once, until it is stopped.
 */
import { NetSuiteStub } from '../../workers/test/support/netsuite-stub';

const port = Number(process.env.BENCH_NETSUITE_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('BENCH_NETSUITE_PORT must be a port number');
const stub = await new NetSuiteStub().start(port);
process.on('SIGTERM', () => void stub.close().then(() => process.exit(0)));
