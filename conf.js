// Connection defaults for a remote server. Flags (--host, ...) override the
// environment (DB_HOST, ...), which overrides this file. When no host and no
// socket are set anywhere, the harness starts its own throwaway MariaDB.
// Prefer DB_PASSWORD over writing a password here.
export default {
  host: undefined, // e.g. '127.0.0.1'
  port: 3306,
  user: undefined, // e.g. 'bench'
  password: undefined,
  socket: undefined, // e.g. '/run/mysqld/mysqld.sock'
  database: 'mysql_driver_bench', // the harness's own schema: it creates and uses only this one
};
