-- sysbench's oltp_read_only transaction (oltp_common.lua: range_size 100, each id drawn apart)
-- over sbtest1 of sbtest-setup.sql: 10 point selects, a simple, a sum, an order and a distinct range.
\set id1 random(1, 100000)
\set id2 random(1, 100000)
\set id3 random(1, 100000)
\set id4 random(1, 100000)
\set id5 random(1, 100000)
\set id6 random(1, 100000)
\set id7 random(1, 100000)
\set id8 random(1, 100000)
\set id9 random(1, 100000)
\set id10 random(1, 100000)
\set simple random(1, 100000)
\set sum random(1, 100000)
\set ord random(1, 100000)
\set dist random(1, 100000)
BEGIN;
SELECT c FROM sbtest1 WHERE id = :id1;
SELECT c FROM sbtest1 WHERE id = :id2;
SELECT c FROM sbtest1 WHERE id = :id3;
SELECT c FROM sbtest1 WHERE id = :id4;
SELECT c FROM sbtest1 WHERE id = :id5;
SELECT c FROM sbtest1 WHERE id = :id6;
SELECT c FROM sbtest1 WHERE id = :id7;
SELECT c FROM sbtest1 WHERE id = :id8;
SELECT c FROM sbtest1 WHERE id = :id9;
SELECT c FROM sbtest1 WHERE id = :id10;
SELECT c FROM sbtest1 WHERE id BETWEEN :simple AND :simple + 99;
SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN :sum AND :sum + 99;
SELECT c FROM sbtest1 WHERE id BETWEEN :ord AND :ord + 99 ORDER BY c;
SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN :dist AND :dist + 99 ORDER BY c;
COMMIT;
