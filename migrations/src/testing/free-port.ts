/** A TCP port on 127.0.0.1 free a moment ago, for a test's own server (PgBouncer, a replica, Redis, S3, an API). */
import net from 'node:net';

export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

/** Whether something on 127.0.0.1 accepts a TCP connection at `port` now (a server started, or one in the way). */
export const isListening = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
