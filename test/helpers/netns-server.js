// Run inside a network namespace by test/integration/shards.test.js: an embedded MariaDB (on that namespace's
// 127.0.0.1) reachable from the other namespaces through a forwarder on every address at `port`,
// so the server sees its clients as 127.0.0.1 as usual. Prints { port, user, password, database }
// once ready; stops the server when stdin closes.
import net from 'node:net';
import { startEmbeddedServer } from '../../lib/server/embedded.js';

// `node --test test/` runs every file under test/, this one too: alone, it has nothing to do.
if (process.argv[2] !== '--serve') process.exit(0);

const port = Number(process.argv[3] ?? 3306);
const database = 'mysql_driver_bench';
const server = await startEmbeddedServer({ database });
const forwarder = net.createServer((client) => {
  const upstream = net.connect(server.port, '127.0.0.1');
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
});
await new Promise((resolve) => forwarder.listen(port, '0.0.0.0', resolve));
process.stdout.write(`${JSON.stringify({ port, user: server.user, password: server.password, database })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  forwarder.close();
  await server.stop();
  process.exit(0);
});
