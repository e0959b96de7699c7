/**
 * The console's one seam to the raw stdio driver in @code-cluster/testkit. Everything else imports these
 * names from here, so moving to a narrower testkit entry point (one that does not pull vitest in with the
 * protocol suite) is a one-line change.
 */
export {
  type PeerEvent,
  type PeerExit,
  SERVER_APPS,
  type ServerApp,
  StdioPeer,
  serverBin,
  type WireMessage,
} from '@code-cluster/testkit';
