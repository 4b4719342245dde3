CREATE TABLE jobs (id bigint PRIMARY KEY, status text NOT NULL, priority int NOT NULL);
