-- A customer's latest orders of one status, and their open total: the --sql grammar in one file.
\set customer random(1, 100)            -- whole numbers 1 to 100 (64 sets are drawn in all)
\set status one_of('open', 'paid')
\set status one_of('paid', 'shipped')   # the later \set of a name wins, for the whole file
/* :customer below is a bound parameter, a value: never a table or a column name.
   Inside quotes it is text, as in the second statement's last column. */
SELECT id, total, note FROM orders
 WHERE customer = :customer AND status = :status
 ORDER BY id DESC LIMIT 5;              -- several rows: ORDER BY, as rows are compared by position
SELECT COUNT(*) AS orders, SUM(total) AS open_total, ':customer' AS text_not_a_parameter
  FROM orders WHERE customer = :customer AND status = 'open';
