// A bench made from a --sql file (docs/benches.md): one operation runs the file's statements in
// order, their :name placeholders filled from a fixed cycle of parameter sets drawn from a seeded
// sequence in set-up. The harness runs --setup once, has the server prepare each statement (a
// refusal is one line, exit 2, and the tables the set-up made are dropped), and takes the reference
// replies for the cycle through its own connection; each driver walks the same cycle and its
// normalised replies must equal the reference (affected rows for an OK reply).
import { basename } from 'node:path';
import { usageError } from '../../lib/common/errors.js';
import { expect } from '../_check.js';
import { EXACT_NUMBER_OPTIONS } from '../select_types.js';
import { parameterCycle } from './parse.js';
import { checkReplies, normaliseReply } from './compare.js';

/** Parameter sets in the cycle every driver walks (and the reference is taken for). */
export const CYCLE = 64;

/** A file's bench name: its basename without .sql, in [a-z0-9_]. */
export const sqlBenchName = (file) => basename(file).replace(/\.sql$/i, '').toLowerCase().replace(/[^a-z0-9_]+/g, '_');

const TRANSACTION_EDGE = /^(BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
// A name qualified by a schema where a statement writes or defines: `other`.t after INTO, TABLE, UPDATE …
// (reading another schema is no write: FROM and JOIN are not looked at).
const QUALIFIED = /\b(?:INTO|TABLE|(?<!KEY\s+)UPDATE|VIEW|EXISTS|TRIGGER|PROCEDURE|FUNCTION|DELETE\s+FROM)\s+(`[^`]+`|[A-Za-z_][\w$]*)\s*\.\s*(?:`[^`]+`|[A-Za-z_][\w$]*)/gi;

/** Why a statement would reach outside the harness's schema (null when it stays inside). */
export function outsideSchema(sql, schema) {
  if (/^\s*USE\b/i.test(sql)) return 'USE changes the schema';
  if (/^\s*(CREATE|DROP|ALTER)\s+(DATABASE|SCHEMA)\b/i.test(sql)) return 'it creates, drops or alters a schema';
  for (const m of sql.matchAll(QUALIFIED)) {
    const other = m[1].replace(/`/g, '');
    if (other !== schema) return `it names schema ${other}`;
  }
  return null;
}

async function tablesOf(admin, schema) {
  return admin.query('SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [schema]);
}

/** Drop what appeared in the schema since `before` (a refused set-up leaves nothing behind). */
async function dropNew(admin, schema, before) {
  const had = new Set(before.map((t) => t.name));
  for (const t of await tablesOf(admin, schema)) {
    if (had.has(t.name)) continue;
    await admin.query(`DROP ${t.type === 'VIEW' ? 'VIEW' : 'TABLE'} IF EXISTS \`${schema}\`.\`${t.name.replace(/`/g, '``')}\``).catch(() => {});
  }
}

const serverSays = (err) => err?.sqlMessage ?? err?.text ?? err?.message ?? String(err);
// The set-up files run in this process: each once per run, whichever bench names it first.
const setUpFiles = new Set();

/**
 * The bench for a parsed --sql file. `spec`: { name, file, statements, sets, prepared, allowWrites,
 * setup: { file, statements } | null } (plain JSON: driver processes build the same bench from it).
 */
export function sqlFileBench(spec) {
  const { name, file, statements, prepared } = spec;
  let reference = null; // { cycle, expected }, taken once in the harness
  const protocol = prepared ? 'binary' : 'text';
  return {
    name,
    title: `${basename(file)}: ${statements.length} statement${statements.length > 1 ? 's' : ''} from a --sql file${prepared ? ', prepared' : ''}`,
    sql: statements.map((s) => s.sql).join('; '),
    statementsPerOp: statements.length,
    notReplayable: 'a --sql bench is not recorded for --replay (yet)',
    note: () => `${CYCLE} parameter sets from a seeded sequence, the same in every driver; replies checked against the harness's own (exact BIGINT and DECIMAL options: ${Object.entries(EXACT_NUMBER_OPTIONS).filter(([, o]) => Object.keys(o).length).map(([d, o]) => `${d} ${Object.keys(o).join(', ')}`).join('; ')})`,

    /** Before anything is measured: refusals, the --setup file, every statement prepared once by the server. */
    async preflight(admin, { schema, server }) {
      const all = [...(spec.setup?.statements ?? []).map((s) => ({ ...s, file: spec.setup.file })), ...statements.map((s) => ({ ...s, file }))];
      for (const s of all) {
        const why = outsideSchema(s.sql, schema);
        if (why) throw usageError(`${s.file}:${s.line}: refused: the harness works only in its own schema ${schema}, and ${why}`);
      }
      const write = statements.find((s) => s.write);
      if (write && !server?.embedded && !spec.allowWrites) {
        throw usageError(`${file}:${write.line}: refused: this statement writes (${write.sql.split(/\s+/)[0].toUpperCase()}) and the server is your own`,
          'add --allow-writes to let it write in the harness\'s schema, or run against the embedded server');
      }
      const before = await tablesOf(admin, schema);
      try {
        await admin.query(`USE \`${schema}\``);
        if (spec.setup && !setUpFiles.has(spec.setup.file)) {
          for (const s of spec.setup.statements) {
            try {
              await admin.query(s.sql);
            } catch (err) {
              throw usageError(`${spec.setup.file}:${s.line}: the server refused this statement: ${serverSays(err)}`);
            }
          }
          setUpFiles.add(spec.setup.file);
        }
        for (const s of statements) {
          try {
            await admin.query('PREPARE mdb_sql_check FROM ?', [s.sql]);
            await admin.query('DEALLOCATE PREPARE mdb_sql_check');
          } catch (err) {
            if ((err?.errno ?? err?.cause?.errno) === 1295) continue; // not preparable: it runs as text, and is checked by the reference pass
            throw usageError(`${file}:${s.line}: the server refused this statement: ${serverSays(err)}`);
          }
        }
      } catch (err) {
        if (spec.setup) setUpFiles.delete(spec.setup.file);
        await dropNew(admin, schema, before);
        throw err;
      }
    },

    /** The reference: the cycle's replies through the harness's own connection, normalised. Writes are rolled back. */
    async setup(admin, { schema }) {
      if (reference) return { shared: reference };
      const cycle = parameterCycle(spec, CYCLE);
      const writes = statements.some((s) => s.write);
      await admin.query(`USE \`${schema}\``);
      const expected = [];
      for (const params of cycle) {
        if (writes) await admin.query('START TRANSACTION');
        try {
          const replies = [];
          for (let i = 0; i < statements.length; i++) {
            const s = statements[i];
            if (writes && TRANSACTION_EDGE.test(s.sql)) { replies.push({ affected: 0 }); continue; }
            let reply;
            try {
              reply = await admin.query(s.sql, params[i]);
            } catch (err) {
              throw usageError(`${file}:${s.line}: the server refused this statement with parameters ${JSON.stringify(params[i])}: ${serverSays(err)}`);
            }
            replies.push(normaliseReply(reply));
          }
          expected.push(replies);
        } finally {
          if (writes) await admin.query('ROLLBACK');
        }
      }
      reference = { cycle, expected };
      return { shared: reference };
    },

    plan(driver, ctx) {
      if (prepared && !driver.capabilities?.execute) return { unsupported: 'no prepared statements in this driver' };
      const { cycle, expected } = ctx.setupData ?? {};
      if (!cycle) return { unavailable: 'no reference replies: the set-up did not run' };
      const exact = driver.capabilities?.driverOptions === false ? undefined : EXACT_NUMBER_OPTIONS[driver.packageName];
      const sqls = statements.map((s) => s.sql);
      return {
        protocol: statements.length > 1 ? `${protocol}, ${statements.length} statements` : protocol,
        ...(exact && Object.keys(exact).length ? { connectOptions: exact } : {}),
        op: (conn) => {
          let next = 0;
          const run = prepared ? (sql, p) => conn.execute(sql, p) : (sql, p) => conn.query(sql, p);
          return async () => {
            const k = next;
            next = (next + 1) % cycle.length;
            const params = cycle[k];
            const replies = new Array(sqls.length);
            for (let i = 0; i < sqls.length; i++) replies[i] = await run(sqls[i], params[i]);
            return { k, replies };
          };
        },
        check: ({ k, replies }) => checkReplies(expected[k], replies, statements, cycle[k]),
      };
    },

    check(result) {
      expect(result && Array.isArray(result.replies), () => `expected the replies of ${statements.length} statements, got ${typeof result}`);
    },
  };
}
