import { type AddressInfo, createServer } from 'node:net';

/** A TCP port on loopback that was free a moment ago: for an engine of the test's own, or one where nothing listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
