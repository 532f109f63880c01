import { createHundredCols } from '../_tables.js';
import { METADATA_SQL, TAG, checkTaggedHundredCols } from './statement.js';
import { renderMetadata } from './section.js';

// Two benches, one statement (statement.js): executed with its result columns unchanged, and with
// its first column's type changing on every execution. They share one probe (probe.js): the bytes
// the server sends per execution, on each driver's own connection, and its section (section.js).

/** The metadata probe: results.metadata, and its section after the main table. */
export const metadataProbe = {
  key: 'metadata',
  async run({ drivers, target, admin, context }) {
    const { runMetadataProbe } = await import('./probe.js'); // the harness's side only: driver processes never load it
    return runMetadataProbe({ drivers, target, admin, server: context.server });
  },
  failed: (metadata) => (metadata.drivers ?? []).some((d) => d.status === 'failed'),
  section: renderMetadata,
};

function variant({ name, title, changing }) {
  return {
    name,
    title,
    sql: `${METADATA_SQL}  (bound to ${changing ? `${TAG} and '${TAG}' in turn` : TAG})`,
    setup: (admin, { schema }) => createHundredCols(admin, schema),
    plan(driver) {
      if (!driver.capabilities.execute) return { unsupported: 'no prepared statements in this driver' };
      return {
        protocol: 'binary',
        op: (conn) => {
          if (!changing) {
            const params = [TAG];
            return () => conn.execute(METADATA_SQL, params);
          }
          let n = 0;
          const asNumber = [TAG];
          const asString = [String(TAG)];
          return () => conn.execute(METADATA_SQL, (n++ & 1) === 0 ? asNumber : asString);
        },
      };
    },
    check: checkTaggedHundredCols,
    probe: metadataProbe,
  };
}

export const executeMetadataChanging = variant({
  name: 'execute_metadata_changing',
  title: 'the same prepared select, its first column\'s type changing on every execution: metadata resent every time',
  changing: true,
});

export default variant({
  name: 'execute_metadata',
  title: 'a prepared 101-column select whose result columns never change: the server may skip resending metadata',
  changing: false,
});
