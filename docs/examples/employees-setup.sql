-- A subset of the employees sample database's schema (github:datacharmer/test_db: departments,
-- employees, dept_emp, salaries), filled with generated data: 9 departments, 3,000 employees, each
-- in one department, with 3 salaries. Names and dates are made up from the row number.
DROP TABLE IF EXISTS salaries;
DROP TABLE IF EXISTS dept_emp;
DROP TABLE IF EXISTS employees;
DROP TABLE IF EXISTS departments;
CREATE TABLE departments (
  dept_no CHAR(4) NOT NULL PRIMARY KEY,
  dept_name VARCHAR(40) NOT NULL UNIQUE
);
CREATE TABLE employees (
  emp_no INT NOT NULL PRIMARY KEY,
  birth_date DATE NOT NULL,
  first_name VARCHAR(14) NOT NULL,
  last_name VARCHAR(16) NOT NULL,
  gender ENUM('M', 'F') NOT NULL,
  hire_date DATE NOT NULL
);
CREATE TABLE dept_emp (
  emp_no INT NOT NULL,
  dept_no CHAR(4) NOT NULL,
  from_date DATE NOT NULL,
  to_date DATE NOT NULL,
  PRIMARY KEY (emp_no, dept_no),
  KEY (dept_no),
  FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE,
  FOREIGN KEY (dept_no) REFERENCES departments (dept_no) ON DELETE CASCADE
);
CREATE TABLE salaries (
  emp_no INT NOT NULL,
  salary INT NOT NULL,
  from_date DATE NOT NULL,
  to_date DATE NOT NULL,
  PRIMARY KEY (emp_no, from_date),
  FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE
);
INSERT INTO departments VALUES ('d001', 'Marketing'), ('d002', 'Finance'), ('d003', 'Human Resources'),
  ('d004', 'Production'), ('d005', 'Development'), ('d006', 'Quality Management'), ('d007', 'Sales'),
  ('d008', 'Research'), ('d009', 'Customer Service');
INSERT INTO employees
SELECT 10000 + seq,
       '1952-02-01' + INTERVAL (seq * 37) % 4700 DAY,
       ELT(1 + seq % 12, 'Georgi', 'Bezalel', 'Parto', 'Chirstian', 'Kyoichi', 'Anneke', 'Tzvetan', 'Saniya', 'Sumant', 'Duangkaew', 'Mary', 'Patricio'),
       ELT(1 + (seq * 7) % 10, 'Facello', 'Simmel', 'Bamford', 'Koblick', 'Maliniak', 'Preusig', 'Zielinski', 'Kalloufi', 'Peac', 'Piveteau'),
       IF(seq % 3 = 0, 'F', 'M'),
       '1985-01-01' + INTERVAL (seq * 53) % 5400 DAY
FROM seq_1_to_3000;
INSERT INTO dept_emp
SELECT emp_no, CONCAT('d00', 1 + emp_no % 9), hire_date, '9999-01-01' FROM employees;
INSERT INTO salaries
SELECT e.emp_no, 40000 + (e.emp_no * 131 + s.seq * 977) % 60000,
       e.hire_date + INTERVAL (s.seq - 1) YEAR,
       IF(s.seq = 3, '9999-01-01', e.hire_date + INTERVAL s.seq YEAR)
FROM employees e JOIN seq_1_to_3 s;
