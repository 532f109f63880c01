-- Three typical queries on MySQL's Sakila sample database (made by scripts/sakila-setup.js from a
-- checkout of github.com/datacharmer/test_db): a customer's rentals with what each film cost, the films
-- of a category with their cast size, and an actor's films with their categories.
\set customer random(1, 599)
\set category random(1, 16)
\set actor random(1, 200)
SELECT r.rental_id, r.rental_date, r.return_date, f.title, f.rental_rate, p.amount, p.payment_date
  FROM rental r
  JOIN inventory i ON i.inventory_id = r.inventory_id
  JOIN film f ON f.film_id = i.film_id
  LEFT JOIN payment p ON p.rental_id = r.rental_id
 WHERE r.customer_id = :customer
 ORDER BY r.rental_date, r.rental_id;
SELECT f.film_id, f.title, f.release_year, f.rating, f.special_features, f.length, COUNT(fa.actor_id) AS actors
  FROM film_category fc
  JOIN film f ON f.film_id = fc.film_id
  LEFT JOIN film_actor fa ON fa.film_id = f.film_id
 WHERE fc.category_id = :category
 GROUP BY f.film_id
 ORDER BY f.title;
SELECT a.first_name, a.last_name, f.title, c.name AS category, f.replacement_cost
  FROM film_actor fa
  JOIN actor a ON a.actor_id = fa.actor_id
  JOIN film f ON f.film_id = fa.film_id
  JOIN film_category fc ON fc.film_id = f.film_id
  JOIN category c ON c.category_id = fc.category_id
 WHERE fa.actor_id = :actor
 ORDER BY f.title;
