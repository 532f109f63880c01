// One embedded server per test file, stopped when the file's tests are done.
import { after, before } from 'node:test';
import { startEmbeddedServer } from '../../lib/server/embedded.js';
import adminDriver from '../../lib/drivers/mariadb.js';
import { prepareSchema } from '../../lib/server/schema.js';

/** Registers before/after hooks; returns a getter for { server, target, admin } (`tls`: the server serves TLS, server.tls says how). */
export function useEmbeddedServer({ database = 'mysql_driver_bench', prepare = false, blackhole = true, tls = false } = {}) {
  const state = {};
  before(async () => {
    state.server = await startEmbeddedServer({ database, blackhole, tls });
    const s = state.server;
    state.target = { host: s.host, port: s.port, user: s.user, password: s.password, database };
    state.admin = await adminDriver.connect({ ...state.target, database: undefined });
    if (prepare) await prepareSchema(state.admin, database);
  });
  after(async () => {
    await state.admin?.close().catch(() => {});
    await state.server?.stop();
  });
  return state;
}
