INSERT INTO embedded_a (id) VALUES ('x');
