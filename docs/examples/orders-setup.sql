-- 10,000 orders of 100 customers, for orders.sql. A --setup file is SQL only: no \set, no :name.
DROP TABLE IF EXISTS orders;
CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  customer INT NOT NULL,
  status VARCHAR(10) NOT NULL,
  total DECIMAL(10, 2) NOT NULL,
  note VARCHAR(40) NOT NULL,
  KEY (customer, status)
);
INSERT INTO orders
SELECT seq, seq % 100 + 1, ELT(seq % 3 + 1, 'open', 'paid', 'shipped'), (seq % 997) / 10, CONCAT('order ', seq)
  FROM seq_1_to_10000;
