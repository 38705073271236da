-- Fixture for embedded_migrations_test: quotes " and \ and UTF-8 é survive.
CREATE TABLE embedded_a (id text PRIMARY KEY, note text DEFAULT E'tab\there');
