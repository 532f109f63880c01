-- Three typical queries on employees-setup.sql's tables: an employee's current department and salary,
-- their salary history, and a department's hires of one year.
\set emp random(10001, 13000)
\set dept one_of('d001', 'd002', 'd003', 'd004', 'd005', 'd006', 'd007', 'd008', 'd009')
\set year random(1985, 1999)
SELECT e.emp_no, e.first_name, e.last_name, d.dept_name, s.salary, e.hire_date
  FROM employees e
  JOIN dept_emp de ON de.emp_no = e.emp_no AND de.to_date = '9999-01-01'
  JOIN departments d ON d.dept_no = de.dept_no
  JOIN salaries s ON s.emp_no = e.emp_no AND s.to_date = '9999-01-01'
 WHERE e.emp_no = :emp;
SELECT salary, from_date, to_date FROM salaries WHERE emp_no = :emp ORDER BY from_date;
SELECT d.dept_name, COUNT(*) AS hires, AVG(s.salary) AS avg_salary, MIN(e.hire_date) AS first_hire
  FROM employees e
  JOIN dept_emp de ON de.emp_no = e.emp_no
  JOIN departments d ON d.dept_no = de.dept_no
  JOIN salaries s ON s.emp_no = e.emp_no AND s.to_date = '9999-01-01'
 WHERE de.dept_no = :dept AND e.hire_date >= MAKEDATE(:year, 1) AND e.hire_date < MAKEDATE(:year + 1, 1)
 GROUP BY d.dept_name;
