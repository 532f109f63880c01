// `mysql-driver-bench list`: each bench with what it measures, its SQL, and the protocol path each
// driver runs.
import { BENCHES } from '../../../benchs/index.js';
import { BUILTIN_DRIVERS, loadDrivers } from '../../drivers/index.js';
import { renderBenchList } from '../../reporting/table.js';
import { splitList } from '../../common/config.js';
import { exitCodesHelp } from '../exit-codes.js';

export function registerList(program, { stdout }) {
  program.command('list')
    .description('list the benches: name, what it measures, SQL, and the protocol path each driver uses; those marked (when named) are not in the default run')
    .option('-d, --drivers <list>', 'drivers to show (as run takes them: releases, checkouts, git commits, adapters)', splitList, BUILTIN_DRIVERS)
    .option('--reinstall', 'install driver releases, and extract and install git commits, again')
    .addHelpText('after', exitCodesHelp('list'))
    .action(async (opts) => {
      const drivers = await loadDrivers(opts.drivers, { reinstall: opts.reinstall });
      // Protocol paths as on a MariaDB server with every feature (bulk, BLACKHOLE, TLS).
      const context = { schema: 'mysql_driver_bench', server: { kind: 'mariadb', bulk: true, blackhole: true }, tls: { available: true, ca: null } };
      stdout.write(renderBenchList(BENCHES, drivers, context));
    });
}
