/**
 * The console's one seam to the raw stdio driver: testkit's narrow `peer` entry (no vitest, no test
 * helpers), never the test kit's main entry. Everything else imports these names from here.
 */
export {
  type PeerEvent,
  type PeerExit,
  SERVER_APPS,
  type ServerApp,
  StdioPeer,
  serverBin,
  type WireMessage,
} from '@code-cluster/testkit/peer';
