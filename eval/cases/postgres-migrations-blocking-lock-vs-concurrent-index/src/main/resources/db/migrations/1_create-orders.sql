CREATE TABLE orders (
  id          bigserial PRIMARY KEY,
  customer_id bigint      NOT NULL,
  status      text        NOT NULL DEFAULT 'new',
  total_cents bigint      NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);
