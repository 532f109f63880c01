-- sysbench's table sbtest1 (oltp_common.lua's layout), 100,000 rows, filled in one INSERT … SELECT
-- from MariaDB's SEQUENCE engine: c is 11 groups of 11 digits, pad 5, as sysbench makes them.
-- mysql-driver-bench --sql docs/examples/oltp_read_only.sql --setup docs/examples/sbtest-setup.sql
DROP TABLE IF EXISTS sbtest1;
CREATE TABLE sbtest1 (
  id INT NOT NULL AUTO_INCREMENT,
  k INT NOT NULL DEFAULT 0,
  c CHAR(120) NOT NULL DEFAULT '',
  pad CHAR(60) NOT NULL DEFAULT '',
  PRIMARY KEY (id),
  KEY k_1 (k)
) ENGINE=InnoDB;
INSERT INTO sbtest1 (id, k, c, pad)
SELECT seq,
       1 + (seq * 7919) % 100000,
       CONCAT_WS('-', LPAD(seq * 3 % 99999999989, 11, '0'), LPAD(seq * 5 % 99999999977, 11, '0'),
         LPAD(seq * 7 % 99999999947, 11, '0'), LPAD(seq * 11 % 99999999943, 11, '0'),
         LPAD(seq * 13 % 99999999907, 11, '0'), LPAD(seq * 17 % 99999999871, 11, '0'),
         LPAD(seq * 19 % 99999999851, 11, '0'), LPAD(seq * 23 % 99999999833, 11, '0'),
         LPAD(seq * 29 % 99999999829, 11, '0'), LPAD(CRC32(seq) % 99999999827, 11, '0')),
       CONCAT_WS('-', LPAD(seq * 31 % 99999999817, 11, '0'), LPAD(seq * 37 % 99999999781, 11, '0'),
         LPAD(seq * 41 % 99999999773, 11, '0'), LPAD(seq * 43 % 99999999769, 11, '0'),
         LPAD(CRC32(seq * 2) % 99999999763, 11, '0'))
FROM seq_1_to_100000;
